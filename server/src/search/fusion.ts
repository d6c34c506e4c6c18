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
 * (first in every list), so it lies in 0..1 and 1 means "top of both".
 */
export function reciprocalRankFusion<T extends RankedItem>(
  dense: readonly T[],
  sparse: readonly T[],
  weights = RRF_WEIGHTS,
  k = RRF_K,
): (T & { score: number })[] {
  const fused = new Map<string, { item: T; sum: number }>();
  const add = (list: readonly T[], weight: number): void => {
    list.forEach((item, rank) => {
      const id = key(item);
      const entry = fused.get(id) ?? { item, sum: 0 };
      entry.sum += weight / (k + rank + 1);
      fused.set(id, entry);
    });
  };
  add(dense, weights.dense);
  add(sparse, weights.sparse);
  const max = (weights.dense + weights.sparse) / (k + 1);
  return [...fused.entries()]
    .sort((a, b) => b[1].sum - a[1].sum || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, e]) => ({ ...e.item, score: Math.min(1, e.sum / max) }));
}
