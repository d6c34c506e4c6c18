// One term's list of postings in memory (term-lists.ts keeps them): document keys ascending and
// their float4 impacts, 12 bytes a posting, with room to append the next videos' postings.
import { impactLayers, type ListPart } from './max-score.ts';

export interface TermList {
  keys: Float64Array;
  impacts: Float32Array;
  length: number;
  top: number;
  used: number;
  /** The list split by impact for scoring (max-score.ts), made when first needed after a change. */
  parts?: ListPart[] | undefined;
}

/** Memory a posting takes: its key (float64) and its impact (float32). */
export const POSTING_BYTES = 12;

export interface Posting {
  key: number;
  impact: number;
}

export function bytesOf(l: TermList): number {
  return (l.keys.length + (l.parts && l.parts.length > 1 ? l.parts[0]!.length : 0)) * POSTING_BYTES;
}

/** The list's parts by impact, as MaxScore reads them. */
export function partsOf(l: TermList): ListPart[] {
  return (l.parts ??= impactLayers(l));
}

export function fromPostings(postings: Posting[], used: number): TermList {
  postings.sort((a, b) => a.key - b.key);
  const keys = new Float64Array(postings.length);
  const impacts = new Float32Array(postings.length);
  let top = 0;
  for (const [i, p] of postings.entries()) {
    keys[i] = p.key;
    impacts[i] = p.impact;
    if (p.impact > top) top = p.impact;
  }
  return { keys, impacts, length: postings.length, top, used };
}

/** Adds postings to a list (a posting already there is replaced). */
export function merge(list: TermList, added: Posting[]): TermList {
  added.sort((a, b) => a.key - b.key);
  const last = list.length > 0 ? list.keys[list.length - 1]! : -1;
  if (added[0]!.key > last && list.keys.length >= list.length + added.length) {
    list.parts = undefined;
    for (const p of added) {
      list.keys[list.length] = p.key;
      list.impacts[list.length++] = p.impact;
      if (p.impact > list.top) list.top = p.impact;
    }
    return list;
  }
  const out: Posting[] = [];
  let i = 0;
  let j = 0;
  while (i < list.length || j < added.length) {
    const a = i < list.length ? list.keys[i]! : Infinity;
    const b = j < added.length ? added[j]!.key : Infinity;
    if (a < b) out.push({ key: a, impact: list.impacts[i++]! });
    else {
      if (a === b) i++;
      out.push(added[j++]!);
    }
  }
  const merged = fromPostings(out, list.used);
  // Room to append the next videos' postings without copying.
  const room = Math.ceil(merged.length * 1.25) + 16;
  const keys = new Float64Array(room);
  const impacts = new Float32Array(room);
  keys.set(merged.keys);
  impacts.set(merged.impacts);
  return { ...merged, keys, impacts };
}
