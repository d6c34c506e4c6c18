import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, RRF_K, RRF_WEIGHTS, type RankedItem } from './fusion.ts';

const videos = (...ids: string[]): RankedItem[] => ids.map((videoId) => ({ videoId }));
const order = (items: readonly RankedItem[]): string[] =>
  items.map((i) => (i.sceneIdx === undefined ? i.videoId : `${i.videoId}#${i.sceneIdx}`));

describe('reciprocalRankFusion', () => {
  it('puts items both lists agree on first, with score 1 for the top of both', () => {
    const fused = reciprocalRankFusion(videos('a', 'b', 'c'), videos('a', 'c', 'b'));
    expect(order(fused)).toEqual(['a', 'c', 'b']);
    expect(fused[0]!.score).toBe(1);
  });

  it('differs from both lists when they disagree', () => {
    // Sparse finds a then b; dense ranks everything, b first and a last.
    const dense = videos('b', 'c', 'd', 'a');
    const sparse = videos('a', 'b');
    const fused = order(reciprocalRankFusion(dense, sparse));
    expect(fused).toEqual(['b', 'a', 'c', 'd']);
    expect(fused).not.toEqual(order(dense));
    expect(fused).not.toEqual(order(sparse));
  });

  it('keeps items found by one list only, below items found by both at the same ranks', () => {
    const fused = reciprocalRankFusion(videos('both', 'dense-only'), videos('sparse-only', 'both'));
    expect(order(fused)).toEqual(['both', 'sparse-only', 'dense-only']);
    const score = (id: string) => fused.find((i) => i.videoId === id)!.score;
    const max = (RRF_WEIGHTS.dense + RRF_WEIGHTS.sparse) / (RRF_K + 1);
    expect(score('sparse-only')).toBeCloseTo(RRF_WEIGHTS.sparse / (RRF_K + 1) / max, 12);
    expect(score('dense-only')).toBeCloseTo(RRF_WEIGHTS.dense / (RRF_K + 2) / max, 12);
  });

  it('weighs the lists: the heavier list decides between two single-list items', () => {
    expect(order(reciprocalRankFusion(videos('d'), videos('s')))).toEqual(['s', 'd']);
    expect(order(reciprocalRankFusion(videos('d'), videos('s'), { dense: 3, sparse: 1 }))).toEqual([
      'd',
      's',
    ]);
  });

  it('breaks ties by key, whatever the order of the lists', () => {
    const equal = { dense: 1, sparse: 1 };
    expect(order(reciprocalRankFusion(videos('y'), videos('x'), equal))).toEqual(['x', 'y']);
    expect(order(reciprocalRankFusion(videos('x'), videos('y'), equal))).toEqual(['x', 'y']);
    const tied = reciprocalRankFusion(videos('y', 'x'), videos('x', 'y'), equal);
    expect(order(tied)).toEqual(['x', 'y']);
    expect(tied[0]!.score).toBe(tied[1]!.score);
  });

  it('fuses scenes by video and scene index, keeping the scenes of one video apart', () => {
    const dense = [
      { videoId: 'v', sceneIdx: 0 },
      { videoId: 'v', sceneIdx: 1 },
    ];
    const sparse = [
      { videoId: 'v', sceneIdx: 1 },
      { videoId: 'w', sceneIdx: 0 },
    ];
    const fused = reciprocalRankFusion(dense, sparse);
    expect(order(fused)).toEqual(['v#1', 'w#0', 'v#0']);
    expect(fused[0]).toMatchObject({ videoId: 'v', sceneIdx: 1 });
  });

  it('gives scores in 0..1, best first, for long lists', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `id${String(i).padStart(3, '0')}`);
    const dense = videos(...ids);
    const sparse = videos(...[...ids].reverse().slice(0, 150));
    const fused = reciprocalRankFusion(dense, sparse);
    expect(fused).toHaveLength(300);
    const scores = fused.map((i) => i.score);
    for (const s of scores) {
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThanOrEqual(1);
    }
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('answers nothing for two empty lists and one list alone for one', () => {
    expect(reciprocalRankFusion([], [])).toEqual([]);
    expect(order(reciprocalRankFusion([], videos('b', 'a')))).toEqual(['b', 'a']);
  });

  it('says which part of the fused score each list gave', () => {
    const fused = reciprocalRankFusion(videos('both', 'dense-only'), videos('both', 'sparse-only'));
    const share = (id: string) => fused.find((i) => i.videoId === id)!.keywordShare;
    expect(share('dense-only')).toBe(0);
    expect(share('sparse-only')).toBe(1);
    // Same rank in both lists: the shares are the weights' (sparse 2 of 3).
    const w = RRF_WEIGHTS.sparse / (RRF_WEIGHTS.dense + RRF_WEIGHTS.sparse);
    expect(share('both')).toBeCloseTo(w, 12);
    // First for keywords, tenth for meaning: keywords carried more than their weight.
    const far = reciprocalRankFusion(videos(...'abcdefghi'.split(''), 'x'), videos('x'));
    const x = far.find((i) => i.videoId === 'x')!;
    const sparse = RRF_WEIGHTS.sparse / (RRF_K + 1);
    const dense = RRF_WEIGHTS.dense / (RRF_K + 10);
    expect(x.keywordShare).toBeCloseTo(sparse / (sparse + dense), 12);
  });
});
