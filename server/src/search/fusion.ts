// Hybrid ranking: weighted reciprocal rank fusion of the dense and the sparse lists.
// Constants tuned on bench/search-quality.ts (docs/decisions/dense-hybrid-search.md).

export const RRF_K = 60;
export const RRF_WEIGHTS = { dense: 1, sparse: 2 };

export interface RankedItem {
  videoId: string;
  sceneIdx?: number;
}

function key(item: RankedItem): string {
  return item.sceneIdx === undefined ? item.videoId : `${item.videoId}#${item.sceneIdx}`;
}

/**
 * Fuses ranked lists (best first). The score is the weighted RRF sum divided by its maximum
 * (first in every list), so it lies in 0..1 and 1 means "top of both". keywordShare is the part
 * of that sum the sparse list gave (0..1; the dense list gave the rest): "why it matched".
 */
export function reciprocalRankFusion<T extends RankedItem>(
  dense: readonly T[],
  sparse: readonly T[],
  weights = RRF_WEIGHTS,
  k = RRF_K,
): (T & { score: number; keywordShare: number })[] {
  const fused = new Map<string, { item: T; sum: number; sparse: number }>();
  const add = (list: readonly T[], weight: number, isSparse: boolean): void => {
    list.forEach((item, rank) => {
      const id = key(item);
      const entry = fused.get(id) ?? { item, sum: 0, sparse: 0 };
      const part = weight / (k + rank + 1);
      entry.sum += part;
      if (isSparse) entry.sparse += part;
      fused.set(id, entry);
    });
  };
  add(dense, weights.dense, false);
  add(sparse, weights.sparse, true);
  const max = (weights.dense + weights.sparse) / (k + 1);
  return [...fused.entries()]
    .sort((a, b) => b[1].sum - a[1].sum || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, e]) => ({
      ...e.item,
      score: Math.min(1, e.sum / max),
      keywordShare: e.sum > 0 ? e.sparse / e.sum : 0,
    }));
}
