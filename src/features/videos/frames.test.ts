import { describe, expect, it } from 'vitest';
import { sampleEvenly, shortTime } from './frames';

describe('frame preview sampling (at most 6, evenly spaced)', () => {
  const frames = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('keeps every frame when there are 6 or fewer', () => {
    expect(sampleEvenly(frames(0))).toEqual([]);
    expect(sampleEvenly(frames(4))).toEqual([0, 1, 2, 3]);
    expect(sampleEvenly(frames(6))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('spreads 6 picks from the first to the last frame', () => {
    expect(sampleEvenly(frames(11))).toEqual([0, 2, 4, 6, 8, 10]);
    expect(sampleEvenly(frames(7))).toEqual([0, 1, 2, 4, 5, 6]);
    const picks = sampleEvenly(frames(100));
    expect(picks).toHaveLength(6);
    expect(picks[0]).toBe(0);
    expect(picks[5]).toBe(99);
    const gaps = picks.slice(1).map((v, i) => v - picks[i]!);
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
  });

  it('shows scene times without milliseconds', () => {
    expect(shortTime('00:01:02.500')).toBe('00:01:02');
    expect(shortTime('25:00:00')).toBe('25:00:00');
  });
});
