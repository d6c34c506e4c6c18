import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ROW_BATCH, useRevealedRows } from './use-revealed-rows';

describe('useRevealedRows', () => {
  it('shows a first batch, then the rest batch by batch', async () => {
    const seen: number[] = [];
    const { result } = renderHook(() => {
      const count = useRevealedRows(50, 'page-1');
      seen.push(count);
      return count;
    });
    expect(seen[0]).toBe(ROW_BATCH);
    await waitFor(() => expect(result.current).toBe(50));
    // Never all at once: every batch size in between was rendered.
    expect(new Set(seen)).toEqual(new Set([10, 20, 30, 40, 50]));
  });

  it('keeps every row when the same list is refetched, starts again on another page', async () => {
    const { result, rerender } = renderHook(({ total, key }) => useRevealedRows(total, key), {
      initialProps: { total: 50, key: 'page-1' },
    });
    await waitFor(() => expect(result.current).toBe(50));
    rerender({ total: 49, key: 'page-1' }); // a row deleted
    expect(result.current).toBe(49);
    rerender({ total: 50, key: 'page-2' });
    expect(result.current).toBe(ROW_BATCH);
    await waitFor(() => expect(result.current).toBe(50));
  });

  it('never answers more rows than there are', () => {
    const { result } = renderHook(() => useRevealedRows(3, 'page-1'));
    expect(result.current).toBe(3);
  });
});
