// A page of rows appears in batches, each committed in a task of its own: React's commit and the
// browser's style and layout of 50 rows at once took one 40-60 ms task; in batches of
// ROW_BATCH none comes near 50 ms (issue 5, no long task while a page of 50 renders). The first
// batch fills a screen; the rest follow within a few frames, below the fold.
import { startTransition, useEffect, useState } from 'react';

export const ROW_BATCH = 10;

/**
 * How many of `total` rows to render now. Starts at one batch whenever `listKey` changes (another
 * page or filter) and grows by a batch per task; the same list refetched (polling, a delete)
 * keeps every row it has.
 */
export function useRevealedRows(total: number, listKey: string): number {
  const [revealed, setRevealed] = useState({ listKey, count: ROW_BATCH });
  if (revealed.listKey !== listKey) setRevealed({ listKey, count: ROW_BATCH });
  const count = revealed.listKey === listKey ? revealed.count : ROW_BATCH;

  useEffect(() => {
    if (count >= total) return;
    const timer = setTimeout(() => {
      startTransition(() => setRevealed((now) => ({ ...now, count: now.count + ROW_BATCH })));
    }, 0);
    return () => clearTimeout(timer);
  }, [count, total]);

  return Math.min(count, total);
}
