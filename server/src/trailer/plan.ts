// Which pieces of the video a trailer is made of. Pure: the same scenes and ranking always give
// the same plan, so the trailer is deterministic with the local provider.
import {
  TRAILER_FALLBACK_MS,
  TRAILER_MAX_MS,
  TRAILER_MIN_MS,
  TRAILER_SEGMENT_MAX_MS,
  TRAILER_SEGMENT_MIN_MS,
} from '../limits.ts';
import { RRF_WEIGHTS } from '../search/fusion.ts';

export interface PlanScene {
  idx: number;
  startMs: number;
  endMs: number;
  /** 0..1 measured by the analysis; 0 when unknown. */
  motion: number;
}

export interface RankedScene {
  idx: number;
  /** Hybrid (RRF) score 0..1, best first. */
  score: number;
}

export interface Segment {
  idx: number;
  startMs: number;
  endMs: number;
}

export interface TrailerPlan {
  /** Chronological. */
  segments: Segment[];
  /** instruction: chosen by the search; fallback: nothing matched, liveliest scenes instead. */
  basis: 'instruction' | 'fallback';
  /** Scenes that matched the instruction, best first (the debug record). */
  matched: number[];
}

export interface PlanLimits {
  maxMs: number;
  minMs: number;
  fallbackMs: number;
  segmentMaxMs: number;
  segmentMinMs: number;
}

export const DEFAULT_PLAN_LIMITS: PlanLimits = {
  maxMs: TRAILER_MAX_MS,
  minMs: TRAILER_MIN_MS,
  fallbackMs: TRAILER_FALLBACK_MS,
  segmentMaxMs: TRAILER_SEGMENT_MAX_MS,
  segmentMinMs: TRAILER_SEGMENT_MIN_MS,
};

/**
 * The best hybrid score a scene can get from the vector search alone (top of the dense list,
 * absent from the keyword list). Scoring above it takes keyword evidence: a real match, where the
 * vector ranking alone always ranks every scene somewhere.
 */
export const MATCH_MIN_SCORE = RRF_WEIGHTS.dense / (RRF_WEIGHTS.dense + RRF_WEIGHTS.sparse);

export function isMatch(score: number): boolean {
  return score > MATCH_MIN_SCORE + 1e-9;
}

/** The middle `maxMs` of a long scene: the part most likely to show what it is about. */
function window(scene: PlanScene, maxMs: number): Segment {
  const length = scene.endMs - scene.startMs;
  if (length <= maxMs) return { idx: scene.idx, startMs: scene.startMs, endMs: scene.endMs };
  const start = scene.startMs + Math.floor((length - maxMs) / 2);
  return { idx: scene.idx, startMs: start, endMs: start + maxMs };
}

function take(order: PlanScene[], targetMs: number, budgetMs: number, l: PlanLimits): Segment[] {
  const chosen: Segment[] = [];
  let total = 0;
  for (const scene of order) {
    if (total >= targetMs) break;
    const seg = window(scene, l.segmentMaxMs);
    const room = budgetMs - total;
    if (room < l.segmentMinMs) break;
    if (seg.endMs - seg.startMs > room) seg.endMs = seg.startMs + room;
    if (seg.endMs - seg.startMs <= 0) continue;
    chosen.push(seg);
    total += seg.endMs - seg.startMs;
  }
  return chosen.sort((a, b) => a.startMs - b.startMs);
}

export function planTrailer(
  scenes: readonly PlanScene[],
  ranked: readonly RankedScene[],
  sourceMs: number,
  limits: PlanLimits = DEFAULT_PLAN_LIMITS,
): TrailerPlan {
  const byIdx = new Map(scenes.map((s) => [s.idx, s]));
  const budget = Math.min(limits.maxMs, sourceMs);
  const order = ranked.map((r) => byIdx.get(r.idx)).filter((s): s is PlanScene => !!s);
  const matched = ranked.filter((r) => isMatch(r.score) && byIdx.has(r.idx)).map((r) => r.idx);
  if (matched.length > 0) {
    const strong = order.slice(0, matched.length);
    const matchedMs = strong.reduce(
      (sum, s) => sum + Math.min(s.endMs - s.startMs, limits.segmentMaxMs),
      0,
    );
    // Every match, then (only if they are very short) the next best ranked scenes.
    const floor = Math.min(limits.minMs, sourceMs / 4);
    const target = Math.max(matchedMs, floor);
    return { segments: take(order, target, budget, limits), basis: 'instruction', matched };
  }
  const lively = [...scenes].sort(
    (a, b) => b.motion - a.motion || b.endMs - b.startMs - (a.endMs - a.startMs) || a.idx - b.idx,
  );
  const target = Math.min(limits.fallbackMs, Math.max(limits.segmentMinMs, sourceMs / 2));
  return { segments: take(lively, target, budget, limits), basis: 'fallback', matched: [] };
}
