import { describe, expect, it } from 'vitest';
import { mapLimit } from './map-limit.ts';

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapLimit', () => {
  it('keeps the items order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 1, 2], 3, async (n, i) => {
      running++;
      most = Math.max(most, running);
      await tick(n * 3);
      running--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:1', '6:2']);
    expect(most).toBe(3);
  });

  it('starts nothing after a failure and throws it once the calls in flight are over', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = mapLimit([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      if (n === 1) throw new Error('put failed');
      await tick(20);
      finished.push(n);
    });
    await expect(run).rejects.toThrow('put failed');
    // 0 was in flight when 1 failed: it ended before the failure was thrown; 3.. never began.
    expect(finished).toContain(0);
    expect(started).not.toContain(3);
  });

  it('returns at once for no items', async () => {
    expect(await mapLimit([], 4, () => Promise.reject(new Error('not called')))).toEqual([]);
  });
});
