// The top k of a keyword query over term lists held in memory (term-lists.ts): MaxScore,
// document at a time (Turtle and Fritzson, 1995). A document's score is the sum, over the query
// terms it holds, of the term's weight times its impact there. Lists are sorted by document key.
// Once k documents are known, the lists whose best contributions together stay below the k-th
// score cannot make a document alone: only the others ("essential") are walked, and the
// non-essential ones are looked up (galloping) for the documents met, most promising first,
// until what they could still add cannot reach the k-th score. The answer is the exact top k:
// scores rounded to 9 decimals, ties broken by the order the caller gives (video id, scene).

import { seek } from './seek.ts';
import { addUp } from './term-at-a-time.ts';

/** Scores are ordered after rounding to 9 decimals: a margin below theta that rounding cannot cross. */
export const SCORE_EPS = 2e-9;

export interface ListPart {
  /** Document keys, ascending, the first `length` entries. */
  keys: Float64Array;
  impacts: Float32Array;
  length: number;
  /** The highest impact counted in this part. */
  top: number;
  /** Impacts above this are counted by another part of the term's list (impactLayers). */
  cap: number;
}

export interface ScoredList extends ListPart {
  /** The query's weight for this term. */
  weight: number;
}

/** Share of a list's postings, the highest impacts, that go to its top part. */
const TOP_SHARE = 0.1;

/**
 * A term's list as two parts: its postings of the highest impacts (a tenth or fewer), and the
 * whole list counting only the others. A common term's list is long, and a few of its postings
 * (a word said twice, a short scene) have impacts far above the rest: on its own that top made
 * the whole list look worth walking. Split, the long part's bound is the low impacts', and it is
 * only looked up; the short part is walked (a "similar" query at 200k scenes: 7 ms to ~1 ms).
 */
export function impactLayers(list: Omit<ListPart, 'cap'>): ListPart[] {
  const whole = { ...list, cap: Infinity };
  if (list.length < 64) return [whole];
  const sample: number[] = [];
  const step = Math.max(1, Math.floor(list.length / 512));
  for (let i = 0; i < list.length; i += step) sample.push(list.impacts[i]!);
  sample.sort((a, b) => a - b);
  const cap = sample[Math.floor(sample.length * (1 - TOP_SHARE))]!;
  if (cap >= list.top) return [whole];
  const keys: number[] = [];
  const impacts: number[] = [];
  let below = 0;
  for (let i = 0; i < list.length; i++) {
    const x = list.impacts[i]!;
    if (x > cap) {
      keys.push(list.keys[i]!);
      impacts.push(x);
    } else if (x > below) below = x;
  }
  const topPart = {
    keys: Float64Array.from(keys),
    impacts: Float32Array.from(impacts),
    length: keys.length,
    top: list.top,
    cap: Infinity,
  };
  return [topPart, { ...list, top: below, cap }];
}

export interface TopHit {
  key: number;
  score: number;
}

/** What ranks first among equal rounded scores; ordered so that a < b means a ranks first. */
export type TieOrder = (a: number, b: number) => number;

const rounded = (s: number): number => Math.round(s * 1e9);

/** What the posting at p adds to its document's score (0 when another part counts it). */
function contribution(l: ScoredList, p: number): number {
  const x = l.impacts[p]!;
  return x <= l.cap ? l.weight * x : 0;
}

/** A bounded heap of the k best so far; its root is the worst of them. */
class Best {
  readonly items: TopHit[] = [];
  constructor(
    private readonly k: number,
    private readonly tie: TieOrder,
  ) {}

  /** a ranks below b. */
  private worse(a: TopHit, b: TopHit): boolean {
    const ra = rounded(a.score);
    const rb = rounded(b.score);
    return ra !== rb ? ra < rb : this.tie(a.key, b.key) > 0;
  }

  get full(): boolean {
    return this.items.length >= this.k;
  }

  /** The k-th score, or -Infinity while fewer than k are known. */
  get theta(): number {
    return this.full ? this.items[0]!.score : -Infinity;
  }

  offer(hit: TopHit): void {
    const h = this.items;
    if (!this.full) {
      h.push(hit);
      this.up(h.length - 1);
    } else if (this.worse(h[0]!, hit)) {
      h[0] = hit;
      this.down(0);
    }
  }

  private up(i: number): void {
    const h = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.worse(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.worse(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }

  sorted(): TopHit[] {
    return [...this.items].sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
  }
}

/**
 * The essential lists' cursors as a heap, the least current key first: the next document is
 * found in log(lists) steps rather than by looking at every list ("similar" queries have dozens).
 * Made again when lists stop being essential (a few times a query).
 */
class Cursors {
  private readonly heap: number[] = [];

  constructor(
    private readonly lists: readonly ScoredList[],
    private readonly pos: readonly number[],
    first: number,
  ) {
    for (let i = first; i < lists.length; i++) if (pos[i]! < lists[i]!.length) this.heap.push(i);
    for (let j = (this.heap.length >> 1) - 1; j >= 0; j--) this.down(j);
  }

  private key(i: number): number {
    return this.lists[i]!.keys[this.pos[i]!]!;
  }

  /** The list whose current key is least. */
  min(): number {
    return this.heap[0]!;
  }

  minKey(): number {
    return this.heap.length > 0 ? this.key(this.heap[0]!) : Infinity;
  }

  /** The least list's cursor moved on: re-place it, or drop it at its end. */
  moved(): void {
    const h = this.heap;
    if (this.pos[h[0]!]! >= this.lists[h[0]!]!.length) {
      const last = h.pop()!;
      if (h.length === 0) return;
      h[0] = last;
    }
    this.down(0);
  }

  private down(j: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * j + 1;
      const r = l + 1;
      let m = j;
      if (l < h.length && this.key(h[l]!) < this.key(h[m]!)) m = l;
      if (r < h.length && this.key(h[r]!) < this.key(h[m]!)) m = r;
      if (m === j) return;
      [h[j], h[m]] = [h[m]!, h[j]!];
      j = m;
    }
  }
}

/** Documents scored before the walk: at least this many, or 16 per result asked. */
const SEED_MIN = 256;

/**
 * Scores exactly the first documents of the most valuable lists (rare terms: short lists, high
 * weights), so that the walk starts with a k-th score near the final one and the long lists of
 * common terms are only looked up, never walked. Without it the walk, in key order, met the best
 * documents late and walked most of the common lists first (7 ms for a "similar" query at 200k
 * scenes). Returns the documents scored, which the walk then passes over.
 */
function seed(
  lists: readonly ScoredList[],
  k: number,
  skip: (key: number) => boolean,
  best: Best,
): Set<number> {
  const seeded = new Set<number>();
  let budget = Math.max(SEED_MIN, 16 * k);
  for (let i = lists.length - 1; i >= 0 && budget > 0; i--) {
    const l = lists[i]!;
    const take = Math.min(l.length, budget);
    budget -= take;
    for (let p = 0; p < take; p++) {
      const doc = l.keys[p]!;
      if (seeded.has(doc) || skip(doc)) continue;
      seeded.add(doc);
      let score = 0;
      for (const m of lists) {
        const q = seek(m.keys, m.length, 0, doc);
        if (q < m.length && m.keys[q] === doc) score += contribution(m, q);
      }
      best.offer({ key: doc, score });
    }
  }
  return seeded;
}

/**
 * Postings the walk would visit (its essential lists' lengths) from which every list is instead
 * added up term at a time (term-at-a-time.ts), when that is no more than TAAT_RATIO times as many
 * postings. A "similar" query of only common terms (eight lists of 17k-97k postings at 1M scenes)
 * leaves MaxScore nothing to skip: every document of every list has a chance, and the walk's
 * cursor heap cost 28 ms where adding the 265k postings up costs 7.5.
 */
export const TAAT_MIN = 32_768;
const TAAT_RATIO = 4;

/**
 * The k best documents of the lists, best first. skip(key) leaves a document out (unfinished
 * videos, the query item itself). `taatMin`: see TAAT_MIN (a test forces either way).
 */
export function maxScore(
  input: readonly ScoredList[],
  k: number,
  skip: (key: number) => boolean,
  tie: TieOrder,
  taatMin = TAAT_MIN,
): TopHit[] {
  const lists = input
    .filter((l) => l.length > 0 && l.weight > 0)
    .sort((a, b) => a.weight * a.top - b.weight * b.top);
  const n = lists.length;
  // bound[i]: the most lists 0..i together can add to a document.
  const bound: number[] = [];
  for (let i = 0, sum = 0; i < n; i++) bound.push((sum += lists[i]!.weight * lists[i]!.top));
  const pos = new Array<number>(n).fill(0);
  const best = new Best(k, tie);
  const seeded = seed(lists, k, skip, best);
  // Lists [0, first) are non-essential: together they stay below the k-th score.
  let first = 0;
  while (first < n && best.full && bound[first]! < best.theta - SCORE_EPS) first++;
  let walk = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += lists[i]!.length;
    if (i >= first) walk += lists[i]!.length;
  }
  if (walk >= taatMin && total <= TAAT_RATIO * walk) {
    addUp(lists, (key, score) => {
      if (score >= best.theta - SCORE_EPS && !seeded.has(key) && !skip(key))
        best.offer({ key, score });
    });
    return best.sorted();
  }
  let cursors = new Cursors(lists, pos, first);
  for (;;) {
    const doc = cursors.minKey();
    if (doc === Infinity) break;
    let score = 0;
    while (cursors.minKey() === doc) {
      const i = cursors.min();
      score += contribution(lists[i]!, pos[i]!);
      pos[i]!++;
      cursors.moved();
    }
    if (skip(doc) || seeded.has(doc)) continue;
    const theta = best.theta - SCORE_EPS;
    let i = first - 1;
    for (; i >= 0 && score + bound[i]! >= theta; i--) {
      const l = lists[i]!;
      const p = seek(l.keys, l.length, pos[i]!, doc);
      pos[i] = p;
      if (p < l.length && l.keys[p] === doc) score += contribution(l, p);
    }
    if (i >= 0 || score < theta) continue;
    best.offer({ key: doc, score });
    const was = first;
    while (first < n && best.full && bound[first]! < best.theta - SCORE_EPS) first++;
    if (first !== was) cursors = new Cursors(lists, pos, first);
  }
  return best.sorted();
}
