// Runs of change between still holds: a short one is a transition, a single step, a run without a
// hold before or a run longer than the longest dissolve is not.
import { describe, expect, it } from 'vitest';
import { StillChange } from './still-change.ts';

/** The runs found over a stream of per-sample changes at 10 samples a second. */
function runs(changes: number[]): { from: number; to: number }[] {
  const s = new StillChange(10);
  return changes.flatMap((c, i) => s.push(i, c) ?? []);
}

const still = (n: number): number[] => Array<number>(n).fill(0);
const moving = (n: number): number[] => Array<number>(n).fill(0.01);

describe('StillChange', () => {
  it('finds a run of small changes between two still holds', () => {
    expect(runs([...still(10), ...moving(6), ...still(10)])).toEqual([{ from: 10, to: 15 }]);
  });

  it('leaves out one step, a run without a hold before it, and a long run', () => {
    expect(runs([...still(10), 0.05, ...still(10)])).toEqual([]);
    expect(runs([...still(3), ...moving(6), ...still(10)])).toEqual([]);
    expect(runs([...still(10), ...moving(30), ...still(10)])).toEqual([]);
  });
});
