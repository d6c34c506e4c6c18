// The pure scene-detection signals, fed with synthetic per-frame measurements and grids.
import { describe, expect, it } from 'vitest';
import { movedDist } from './camera-move.ts';
import {
  affineResidual,
  blockSteps,
  fadeBottom,
  frameStats,
  photometricResidual,
  varianceDip,
  type FrameStats,
  type WindowSamples,
} from './grid.ts';
import { wipeEvidence } from './wipe.ts';

const stats = (mean: number, variance: number): FrameStats => ({
  mean: [mean, mean, mean],
  variance,
});

/** The five samples of a window over a cross-dissolve of A into B with correlation `cov`. */
function dissolve(a: FrameStats, b: FrameStats, cov = 0): WindowSamples {
  const at = (t: number): FrameStats => ({
    mean: [0, 1, 2].map((k) => a.mean[k]! * (1 - t) + b.mean[k]! * t) as [number, number, number],
    variance: (1 - t) ** 2 * a.variance + t ** 2 * b.variance + 2 * t * (1 - t) * cov,
  });
  return { a: at(0), q1: at(0.25), c: at(0.5), q3: at(0.75), b: at(1) };
}

describe('varianceDip', () => {
  it('sees a dissolve between two unrelated textured pictures, even of unequal contrast', () => {
    expect(varianceDip(dissolve(stats(0.4, 0.09), stats(0.5, 0.08)))).toBeGreaterThan(0.8);
    expect(varianceDip(dissolve(stats(0.6, 0.1), stats(0.2, 0.02)))).toBeGreaterThan(0.3);
  });

  it('sees a dissolve out of a flat picture (contrast grows with the share of the new one)', () => {
    expect(varianceDip(dissolve(stats(0.2, 0), stats(0.5, 0.06)))).toBeGreaterThan(0.5);
  });

  it('does not take steady or slowly drifting contrast (a moving shot) for a dissolve', () => {
    const steady: WindowSamples = {
      a: stats(0.5, 0.05),
      q1: stats(0.5, 0.048),
      c: stats(0.5, 0.047),
      q3: stats(0.5, 0.049),
      b: stats(0.5, 0.05),
    };
    expect(varianceDip(steady)).toBe(0);
    const drifting = dissolve(stats(0.5, 0.08), stats(0.5, 0.02), Math.sqrt(0.08 * 0.02));
    expect(varianceDip(drifting)).toBe(0);
  });

  it('rejects a contrast dip whose brightness does not move on the line between the ends', () => {
    const window = dissolve(stats(0.4, 0.09), stats(0.5, 0.08));
    window.c = { ...window.c, mean: [0.2, 0.2, 0.2] };
    expect(varianceDip(window)).toBe(0);
  });

  it('rejects a dip that does not follow the parabola (a single odd frame)', () => {
    const window = dissolve(stats(0.4, 0.09), stats(0.5, 0.08));
    window.q1 = { ...window.q1, variance: 0.09 };
    window.q3 = { ...window.q3, variance: 0.08 };
    expect(varianceDip(window)).toBe(0);
  });

  it('has nothing to say about two flat pictures', () => {
    expect(varianceDip(dissolve(stats(0.1, 0), stats(0.8, 0.001)))).toBe(0);
  });
});

describe('fadeBottom', () => {
  const series = (values: number[]) => (i: number) => values[i]!;

  it('puts the boundary where a fade out meets a fade in, not in a dim shot fading in slowly', () => {
    // Lit (0.6) fading to black at 5, then a dim shot (0.12) rising slowly.
    const luma = [0.6, 0.48, 0.36, 0.24, 0.12, 0, 0.01, 0.02, 0.03, 0.045, 0.06, 0.09, 0.12];
    expect(fadeBottom(series(luma), 1, 11, 0.12)).toBe(5);
  });

  it('splits a black hold in two', () => {
    const luma = [0.5, 0.3, 0.1, 0, 0, 0, 0, 0, 0.1, 0.3, 0.5];
    expect(fadeBottom(series(luma), 1, 9, 0.5)).toBe(5);
  });
});

describe('movedDist', () => {
  it('explains a pan by a shift and leaves a new picture unexplained', () => {
    const w = 32;
    const h = 18;
    const pattern = (x: number, y: number): number =>
      (Math.sin(x * 0.7) + Math.cos(y * 0.9) + 2) / 4;
    const grid = (dx: number, other = false): Float32Array => {
      const g = new Float32Array(w * h * 3);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const v = other ? ((x * 7 + y * 13) % 5) / 5 : pattern(x + dx, y);
          g.fill(v, (y * w + x) * 3, (y * w + x) * 3 + 3);
        }
      }
      return g;
    };
    const a = grid(0);
    expect(movedDist(a, grid(3), w, h)).toBeLessThan(0.01);
    expect(movedDist(a, grid(0, true), w, h)).toBeGreaterThan(0.1);
  });

  it('explains a quick pan of a quarter of the width between samples', () => {
    const w = 32;
    const h = 18;
    // No period: only the true shift matches.
    const at = (x: number, y: number): number => ((x * x * 3 + y * 5) % 17) / 17;
    const grid = (dx: number): Float32Array => {
      const g = new Float32Array(w * h * 3);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) g.fill(at(x + dx, y), (y * w + x) * 3, (y * w + x) * 3 + 3);
      }
      return g;
    };
    expect(movedDist(grid(0), grid(7), w, h)).toBeLessThan(0.01);
    expect(movedDist(grid(0), grid(-6), w, h)).toBeLessThan(0.01);
  });

  it('answers as trying every move to the end does (moves given up early, smallest first)', () => {
    const w = 32;
    const h = 18;
    // Every move of movedDist, tried in full: the smallest mean difference.
    const plain = (a: Float32Array, b: Float32Array): number => {
      let best = Infinity;
      for (const zoom of [1, 0.8, 0.9, 1.12, 1.25]) {
        for (let dy = -4; dy <= 4; dy++) {
          for (let dx = -8; dx <= 8; dx++) {
            if (zoom !== 1 && (Math.abs(dx) > 1 || Math.abs(dy) > 1)) continue;
            let sum = 0;
            let count = 0;
            for (let y = 0; y < h; y++) {
              const sy = Math.round((h - 1) / 2 + (y - (h - 1) / 2) * zoom + dy);
              if (sy < 0 || sy >= h) continue;
              for (let x = 0; x < w; x++) {
                const sx = Math.round((w - 1) / 2 + (x - (w - 1) / 2) * zoom + dx);
                if (sx < 0 || sx >= w) continue;
                const p = (y * w + x) * 3;
                const q = (sy * w + sx) * 3;
                sum +=
                  Math.abs(b[p]! - a[q]!) +
                  Math.abs(b[p + 1]! - a[q + 1]!) +
                  Math.abs(b[p + 2]! - a[q + 2]!);
                count += 3;
              }
            }
            if (count > (w * h * 3) / 2) best = Math.min(best, sum / count);
          }
        }
      }
      return best;
    };
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const noise = (): Float32Array => Float32Array.from({ length: w * h * 3 }, random);
    // A picture, the same moved (by a shift or a zoom) with a little noise, and an unrelated one.
    const a = noise();
    const moved = (dx: number, dy: number): Float32Array => {
      const g = new Float32Array(w * h * 3);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const sx = Math.min(w - 1, Math.max(0, x + dx));
          const sy = Math.min(h - 1, Math.max(0, y + dy));
          for (let k = 0; k < 3; k++) {
            g[(y * w + x) * 3 + k] = a[(sy * w + sx) * 3 + k]! + 0.05 * random();
          }
        }
      }
      return g;
    };
    for (const b of [a, moved(2, 1), moved(-6, 3), moved(0, -2), noise()]) {
      const exact = plain(a, b);
      expect(movedDist(a, b, w, h)).toBe(exact);
      // With `enough`, whether some move leaves less than it, just above and below the answer.
      for (const enough of [exact * 0.999, exact * 1.001, exact + 0.01, 0.3, 0.35]) {
        expect(movedDist(a, b, w, h, enough) < enough).toBe(exact < enough);
      }
    }
  });
});

describe('frameStats', () => {
  it('measures mean colour and grey variance of an rgb24 frame', () => {
    const frame = new Uint8Array([255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0]);
    const s = frameStats(frame);
    expect(s.mean[0]).toBeCloseTo(0.5);
    expect(s.mean[1]).toBe(0);
    // Grey levels 0.299 and 0 in equal shares.
    expect(s.variance).toBeCloseTo((0.299 / 2) ** 2, 5);
  });
});

describe('wipeEvidence', () => {
  const w = 32;
  const h = 18;
  /** A grid whose block (x, y) has the grey level value(x, y). */
  const grid = (value: (x: number, y: number) => number): Float32Array => {
    const g = new Float32Array(w * h * 3);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) g.fill(value(x, y), (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
    return g;
  };
  const a = (x: number, y: number): number => ((x * 7 + y * 3) % 11) / 11;
  const b = (x: number, y: number): number => 0.2 + ((x * 5 + y * 13) % 7) / 10;
  /** The per-sample block changes of 25 grids (24 steps, the centre between steps 11 and 12). */
  const stepsOf = (frames: Float32Array[]): Float32Array[] =>
    frames.slice(1).map((f, i) => blockSteps(frames[i]!, f));

  it('sees an edge crossing the picture from the left over ten samples, at the centre', () => {
    // The edge passes column 32 * (k - 7) / 10 at sample k: the middle crossing at sample 12.
    const frames = Array.from({ length: 25 }, (_, k) =>
      grid((x, y) => (x < (w * (k - 7)) / 10 ? b(x, y) : a(x, y))),
    );
    // Blocks where the two pictures happen to match do not count.
    expect(wipeEvidence(stepsOf(frames), w, h)).toBeGreaterThan(0.8);
  });

  it('places a wipe out of a moving shot at its middle, where the blocks seen crossing lie to one side', () => {
    // The edge passes column 32 * (k - 2) / 20 at sample k: the picture's middle column at sample
    // 12. The six columns it crosses first flicker until then (a moving shot), so they do not
    // count, and the blocks seen crossing have their median 1.4 samples late; the fitted edge
    // crosses the picture's middle 0.8 early.
    const frames = Array.from({ length: 25 }, (_, k) =>
      grid((x, y) => {
        if (x < (w * (k - 2)) / 20) return b(x, y);
        return x < 6 ? a(x, y) * 0.6 + (k % 2) * 0.4 : a(x, y);
      }),
    );
    expect(wipeEvidence(stepsOf(frames), w, h)).toBeGreaterThan(0.5);
  });

  it('sees none in a cut, a cross-fade or a shape passing by', () => {
    const cut = Array.from({ length: 25 }, (_, k) => grid(k < 12 ? a : b));
    const fade = Array.from({ length: 25 }, (_, k) => {
      const t = Math.min(1, Math.max(0, (k - 7) / 10));
      return grid((x, y) => (1 - t) * a(x, y) + t * b(x, y));
    });
    // A bright bar eight blocks wide moving right: each block changes as it comes and as it goes.
    const bar = Array.from({ length: 25 }, (_, k) =>
      grid((x, y) => (x >= k && x < k + 8 ? 1 : a(x, y))),
    );
    for (const frames of [cut, fade, bar]) expect(wipeEvidence(stepsOf(frames), w, h)).toBe(0);
  });
});

describe('affineResidual', () => {
  it('leaves nothing of a step towards black or white, much of another hue', () => {
    const a = Float32Array.from({ length: 60 }, (_, i) => ((i * 7) % 13) / 13);
    const darker = a.map((v) => 0.6 * v);
    const whiter = a.map((v) => 0.7 * v + 0.3);
    // The same layout with the channels traded: pink to beige is not a gain.
    const hue = a.map((v, i) => (i % 3 === 0 ? a[i + 1]! : i % 3 === 1 ? a[i - 1]! : v));
    expect(affineResidual(a, darker)).toBeLessThan(1e-6);
    expect(affineResidual(a, whiter)).toBeLessThan(1e-6);
    expect(affineResidual(a, hue)).toBeGreaterThan(0.1);
    expect(
      affineResidual(
        a,
        a.map((v) => 1 - v),
      ),
    ).toBe(Infinity);
  });
});

describe('photometricResidual', () => {
  // A grid of 8 blocks, each an RGB triple: a textured picture.
  const picture = Float32Array.from({ length: 24 }, (_, i) => 0.2 + 0.6 * (((i * 7) % 11) / 10));

  it('leaves nothing of an exposure and white-balance step (a gain and offset a channel)', () => {
    const stepped = picture.map((v, i) => v * [1.05, 1.02, 0.97][i % 3]! + 0.02);
    expect(photometricResidual(picture, stepped)).toBeLessThan(1e-6);
  });

  it('leaves much of another picture, and cannot explain a cut to a flat one', () => {
    const other = picture.map((_, i) => 0.2 + 0.6 * (((i * 5) % 7) / 6));
    expect(photometricResidual(picture, other)).toBeGreaterThan(0.1);
    expect(photometricResidual(picture, new Float32Array(24).fill(0.3))).toBe(Infinity);
  });
});
