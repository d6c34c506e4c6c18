// The colour-mixture evidence of gradual transitions, fed with synthetic pictures.
import { describe, expect, it } from 'vitest';
import { colourHistogram, mixtureCrossing } from './colour-mixture.ts';

/** A picture of 64 pixels, `share` of them (from the left) of colour b, the rest of colour a. */
function wiped(a: number[], b: number[], share: number): Float32Array {
  const frame = new Uint8Array(64 * 3);
  for (let p = 0; p < 64; p++) frame.set(p < Math.round(share * 64) ? b : a, 3 * p);
  return colourHistogram(frame);
}

const RED = [220, 30, 30];
const BLUE = [30, 30, 220];
/** 8 pictures outside the window on each side, the window 2 x 8 + 1 pictures. */
const OUTSIDE = 8;

/** Histograms of the window and its outsides, the share of b at each picture from `share`. */
const course = (share: (i: number) => number): Float32Array[] =>
  Array.from({ length: 2 * OUTSIDE + 17 }, (_, i) => wiped(RED, BLUE, share(i)));

describe('mixtureCrossing', () => {
  it('finds the middle of a wipe between two shots that stay put', () => {
    // The window is pictures 8 to 24; the edge crosses from picture 14 to picture 22.
    const ramp = (i: number): number => Math.min(1, Math.max(0, (i - 14) / 8));
    const at = mixtureCrossing(course(ramp), OUTSIDE);
    expect(at).toBeDefined();
    expect(Math.abs(at! - 18)).toBeLessThanOrEqual(0.5);
  });

  it('does not take a colour drift that goes on past the window for a transition', () => {
    // A zoom or pan slowly trading one colour for another, from before the window to after it.
    const drift = (i: number): number => Math.min(1, Math.max(0, i / 32));
    expect(mixtureCrossing(course(drift), OUTSIDE)).toBeUndefined();
  });

  it('leaves a change in one picture to the cut detector', () => {
    expect(
      mixtureCrossing(
        course((i) => (i >= 18 ? 1 : 0)),
        OUTSIDE,
      ),
    ).toBeUndefined();
  });

  it('does not take a flash or a passing object, which come back, for a transition', () => {
    const back = (i: number): number => (i >= 15 && i <= 21 ? 0.6 : 0);
    expect(mixtureCrossing(course(back), OUTSIDE)).toBeUndefined();
  });
});
