import { describe, expect, it } from 'vitest';
import { EventLoopLag } from './event-loop-lag.ts';

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('event loop lag', () => {
  it('keeps the longest block since the last reading, then starts again', async () => {
    const lag = new EventLoopLag().start();
    try {
      await tick(50);
      const until = performance.now() + 150;
      while (performance.now() < until); // blocks the loop
      await tick(50);
      expect(lag.takeLongestMs()).toBeGreaterThanOrEqual(120);
      await tick(60);
      expect(lag.takeLongestMs()).toBeLessThan(120);
    } finally {
      lag.stop();
    }
  });
});
