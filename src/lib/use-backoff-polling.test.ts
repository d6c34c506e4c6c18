import { describe, expect, it } from 'vitest';
import { nextPollInterval } from './use-backoff-polling';

const backoff = { firstMs: 2_000, maxMs: 30_000, factor: 1.5 };

describe('polling backoff', () => {
  it('starts quick, grows by the factor after every answer and stops growing at the maximum', () => {
    const steps: number[] = [];
    let interval = 0;
    for (let i = 0; i < 10; i += 1) {
      interval = nextPollInterval(interval, backoff);
      steps.push(interval);
    }
    expect(steps.slice(0, 4)).toEqual([2_000, 3_000, 4_500, 6_750]);
    expect(Math.max(...steps)).toBe(30_000);
    expect(steps.at(-1)).toBe(30_000);
  });
});
