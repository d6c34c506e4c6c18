import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_LIMITS,
  isMatch,
  MATCH_MIN_SCORE,
  planTrailer,
  type PlanScene,
} from './plan.ts';

const scenes = (lengths: number[], motion: number[] = []): PlanScene[] => {
  let at = 0;
  return lengths.map((len, idx) => {
    const s = { idx, startMs: at, endMs: at + len, motion: motion[idx] ?? 0 };
    at += len;
    return s;
  });
};

describe('planTrailer', () => {
  it('takes the matching scenes in chronological order', () => {
    const plan = planTrailer(
      scenes([4000, 4000, 4000, 4000, 4000]),
      [
        { idx: 3, score: 0.9 },
        { idx: 1, score: 0.8 },
        { idx: 0, score: 0.3 },
        { idx: 2, score: 0.2 },
      ],
      20_000,
    );
    expect(plan.basis).toBe('instruction');
    expect(plan.matched).toEqual([3, 1]);
    expect(plan.segments.map((s) => s.idx)).toEqual([1, 3]);
  });

  it('fills up short matches with the next best ranked scenes', () => {
    const plan = planTrailer(
      scenes(Array<number>(20).fill(2000)),
      [
        { idx: 7, score: 0.9 },
        { idx: 2, score: 0.2 },
        { idx: 9, score: 0.1 },
        { idx: 5, score: 0.05 },
        { idx: 1, score: 0.04 },
        { idx: 0, score: 0.03 },
      ],
      40_000,
    );
    // 10 s floor: the match plus the next four ranked scenes.
    expect(plan.segments.map((s) => s.idx)).toEqual([1, 2, 5, 7, 9]);
  });

  it('falls back to the liveliest, then longest scenes when nothing matches', () => {
    const plan = planTrailer(
      scenes([3000, 5000, 2000, 6000], [0.1, 0.1, 0.9, 0.1]),
      [{ idx: 0, score: MATCH_MIN_SCORE }],
      16_000,
    );
    expect(plan.basis).toBe('fallback');
    expect(plan.matched).toEqual([]);
    // Target is half the source (8 s): scene 2 (most motion), then 3 (longest).
    expect(plan.segments.map((s) => s.idx)).toEqual([2, 3]);
  });

  it('never exceeds the length bound and takes the middle of long scenes', () => {
    const many = scenes(Array<number>(30).fill(20_000));
    const ranked = many.map((s) => ({ idx: s.idx, score: 0.9 }));
    const plan = planTrailer(many, ranked, 600_000);
    const total = plan.segments.reduce((t, s) => t + s.endMs - s.startMs, 0);
    expect(total).toBeLessThanOrEqual(DEFAULT_PLAN_LIMITS.maxMs);
    // The spec's default bound: at most 60 s, and all of it used when there is enough to show.
    expect(DEFAULT_PLAN_LIMITS.maxMs).toBe(60_000);
    expect(total).toBe(60_000);
    expect(plan.segments[0]).toEqual({ idx: 0, startMs: 6000, endMs: 14_000 });
  });

  it('is never longer than the source', () => {
    const plan = planTrailer(
      scenes([1500, 1500]),
      [
        { idx: 0, score: 1 },
        { idx: 1, score: 1 },
      ],
      3000,
    );
    const total = plan.segments.reduce((t, s) => t + s.endMs - s.startMs, 0);
    expect(total).toBeLessThanOrEqual(3000);
  });

  it('counts as a match only a score above what the vector search alone can give', () => {
    expect(isMatch(MATCH_MIN_SCORE)).toBe(false);
    expect(isMatch(MATCH_MIN_SCORE + 0.01)).toBe(true);
  });
});
