// Each sample's change over every blend window's span (the coarse grid's mean difference from the
// sample 2w before, for each window half-width w), kept for the whole video (5 numbers a sample):
// the change across a window centred on c is at(c + w, w), and the same span's change just before
// and just after it at(c - w, w) and at(c + 3w, w). A dissolve's ends differ far more than either
// shot changes over as long (the rolling baseline of gradual-evidence.ts's moving blends); a head
// turn or a pan changes about as much beside itself.
import { GrowArray } from '../media/visual.ts';
import type { RecentSamples } from './samples.ts';
import { dist } from './signals/grid.ts';

export class SpanChanges {
  private readonly values: GrowArray;

  /** `windows`: the blend windows' half-widths, in samples (the ring must hold 2w + 1 samples). */
  constructor(readonly windows: readonly number[]) {
    this.values = new GrowArray(windows.length);
  }

  get count(): number {
    return this.values.length;
  }

  /** Sample `i` has just been pushed to `recent`. */
  push(recent: RecentSamples, i: number): void {
    const now = recent.grid(i)!;
    this.values.push(
      ...this.windows.map((w) => {
        const before = i - 2 * w >= 0 ? recent.grid(i - 2 * w) : undefined;
        return before ? dist(before, now) : NaN;
      }),
    );
  }

  /**
   * The grid's change from sample i - 2w to i (window half-width w, one of `windows`); NaN before
   * the video's start or past the samples pushed.
   */
  at(i: number, w: number): number {
    const k = this.windows.indexOf(w);
    if (k < 0 || i < 0 || i >= this.values.length) return NaN;
    return this.values.get(i, k);
  }
}
