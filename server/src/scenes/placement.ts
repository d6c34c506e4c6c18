// Which scene boundaries the detector answers (combine.ts): hard cuts are the surest and
// claim their place first, strongest first, then the fades and wipes, then the blends (each in
// time order); anything closer than the minimum scene length to a kept boundary or an end is
// dropped, and at most `room` are kept.
import type { Transition } from './detector.ts';

export interface PlacementInput {
  /** Candidate boundaries, as sample numbers. */
  candidates: readonly number[];
  /** The hard cuts among all candidates. */
  cuts: ReadonlySet<number>;
  /** The gradual ones: true when surer than a blend (a fade or a wipe). */
  transitions: ReadonlyMap<number, boolean>;
  /** How strong a cut is (its change beyond the light: Candidates.cutStrength). */
  strength: (i: number) => number;
  timeMs: (i: number) => number;
  minSceneMs: number;
  endMs: number;
  room: number;
}

/** The kept boundaries' times in ms, ascending. */
export function placeBoundaries(o: PlacementInput): number[] {
  const strongestFirst = o.candidates
    .filter((i) => o.cuts.has(i))
    .sort((x, y) => o.strength(y) - o.strength(x));
  const rest = o.candidates.filter((i) => !o.cuts.has(i)).sort((x, y) => x - y);
  const ordered = [
    ...strongestFirst,
    ...rest.filter((i) => o.transitions.get(i) === true),
    ...rest.filter((i) => o.transitions.get(i) !== true),
  ];
  // Sorted, so each candidate checks only its two neighbours (a long video has many).
  const kept: number[] = [];
  for (const i of ordered) {
    if (kept.length >= o.room) break;
    const ms = o.timeMs(i);
    const at = sortedIndex(kept, ms);
    const fits =
      ms >= o.minSceneMs &&
      o.endMs - ms >= o.minSceneMs &&
      (at === 0 || ms - kept[at - 1]! >= o.minSceneMs) &&
      (at === kept.length || kept[at]! - ms >= o.minSceneMs);
    if (fits) kept.splice(at, 0, ms);
  }
  return kept;
}

/** Where value goes in the ascending array xs (binary search). */
function sortedIndex(xs: readonly number[], value: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The samples a gradual transition's evidence covers, its colours' crossing included. */
export function evidenceSpan(t: Transition): { lo: number; hi: number } {
  return { lo: Math.min(t.from, t.mixAt ?? t.from), hi: Math.max(t.to, t.mixAt ?? t.to) };
}

/**
 * Gradual transitions in time order, grouped when their evidence lies at most `gap` samples
 * apart (a long dissolve or wipe between moving shots shows blend or colour evidence in pieces
 * along its course); a precise one (a fade's bottom, a wipe's edge) stays alone.
 */
export function joinNear(
  ts: readonly Transition[],
  gap: number,
  isPrecise: (t: Transition) => boolean,
): Transition[][] {
  const groups: Transition[][] = [];
  let hi = -Infinity;
  let open = false;
  for (const t of [...ts].sort((a, b) => evidenceSpan(a).lo - evidenceSpan(b).lo)) {
    const span = evidenceSpan(t);
    const alone = isPrecise(t);
    if (open && !alone && span.lo - hi <= gap) {
      groups.at(-1)!.push(t);
      hi = Math.max(hi, span.hi);
    } else {
      groups.push([t]);
      hi = span.hi;
      open = !alone;
    }
  }
  return groups;
}
