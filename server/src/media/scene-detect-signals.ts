// Pure measurements and tests behind scene detection (scene-detector.ts), kept apart so they can
// be checked with synthetic signals. Frames here are the coarse RGB grids of the detector (0..1).

export type Grid = Float32Array;

/** Mean absolute difference of two grids, 0..1. */
export function dist(a: Grid, b: Grid): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
}

/** Mean absolute difference of c from the blend (1-t)·a + t·b. */
export function blendResidual(a: Grid, b: Grid, c: Grid, t: number): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(c[i]! - (a[i]! * (1 - t) + b[i]! * t));
  return s / a.length;
}

/**
 * Camera moves tried: shifts of up to a quarter of the width and of the height (8 and 4 blocks:
 * a quick pan over a sample, or over two pictures' worth when a reference-only decode had to take
 * the picture after the tick; 4 and 3 blocks let those through as cuts), and zooms.
 */
const SHIFTS: { zoom: number; dx: number; dy: number }[] = [];
for (const zoom of [1, 0.8, 0.9, 1.12, 1.25]) {
  for (let dy = -4; dy <= 4; dy++) {
    for (let dx = -8; dx <= 8; dx++) {
      if (zoom !== 1 && (Math.abs(dx) > 1 || Math.abs(dy) > 1)) continue;
      SHIFTS.push({ zoom, dx, dy });
    }
  }
}

/**
 * The smallest difference between b and a shifted or zoomed copy of a (about the centre): what
 * is left of the change from a to b once a camera move has been allowed for. Stops early once
 * the difference drops below `enough`.
 */
export function movedDist(a: Grid, b: Grid, w: number, h: number, enough = 0): number {
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  let best = Infinity;
  for (const { zoom, dx, dy } of SHIFTS) {
    let sum = 0;
    let count = 0;
    for (let y = 0; y < h; y++) {
      const sy = Math.round(cy + (y - cy) * zoom + dy);
      if (sy < 0 || sy >= h) continue;
      for (let x = 0; x < w; x++) {
        const sx = Math.round(cx + (x - cx) * zoom + dx);
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
    // A shift that leaves less than half the picture overlapping proves nothing.
    if (count <= (w * h * 3) / 2) continue;
    best = Math.min(best, sum / count);
    if (best < enough) break;
  }
  return best;
}

/** Whether a camera move brings a at least halfway to b (a cross-fade does not do that). */
export function explainedByMotion(a: Grid, b: Grid, w: number, h: number, dab: number): boolean {
  return movedDist(a, b, w, h, 0.5 * dab) < 0.5 * dab;
}

/** Per-sample statistics of a frame that a cross-dissolve changes in a known way. */
export interface FrameStats {
  /** Mean of each channel, 0..1. */
  mean: [number, number, number];
  /** Variance of the grey level (0..1 scale). */
  variance: number;
}

/** Mean colour and grey-level variance of an rgb24 frame. */
export function frameStats(frame: Uint8Array): FrameStats {
  let r = 0;
  let g = 0;
  let b = 0;
  let y2 = 0;
  const n = frame.length / 3;
  for (let p = 0; p < frame.length; p += 3) {
    r += frame[p]!;
    g += frame[p + 1]!;
    b += frame[p + 2]!;
    const y = 0.299 * frame[p]! + 0.587 * frame[p + 1]! + 0.114 * frame[p + 2]!;
    y2 += y * y;
  }
  const mean: [number, number, number] = [r / n / 255, g / n / 255, b / n / 255];
  const my = 0.299 * mean[0] + 0.587 * mean[1] + 0.114 * mean[2];
  return { mean, variance: Math.max(0, y2 / n / (255 * 255) - my * my) };
}

/** Samples of a window a..b of half-width w: the ends, the quarter points and the centre. */
export interface WindowSamples {
  a: FrameStats;
  q1: FrameStats;
  c: FrameStats;
  q3: FrameStats;
  b: FrameStats;
}

/** Largest centre variance, share of the straight line between the ends (an even mix of two
 * unrelated pictures has half of it; correlated pictures dip less, motion alone does not dip). */
const DIP_MAX = 0.7;
/** Largest misfit of the variance curve to the cross-dissolve parabola, share of the larger end. */
const FIT_TOL = 0.12;
/** Largest misfit of the mean colour to the straight line between the ends (motion inside the
 * shots moves their means a little). */
const MEAN_TOL = 0.06;

/**
 * The evidence for a cross-dissolve that camera or object motion cannot fake: while
 * F = (1-α)·A + α·B, the mean colour moves on a straight line from A's to B's, and the variance
 * follows the parabola (1-α)²·vA + α²·vB + 2α(1-α)·cov, which sags far below the straight line
 * between vA and vB when the two pictures are unrelated, whatever moves inside them, as long as
 * their contrast stays. Returns the strength of the evidence (0..1, 0 = no dissolve).
 */
export function varianceDip(s: WindowSamples): number {
  const va = s.a.variance;
  const vb = s.b.variance;
  const vc = s.c.variance;
  const line = (va + vb) / 2;
  const high = Math.max(va, vb);
  // Without contrast at either end there is nothing to sag.
  if (high < 0.004 || vc > DIP_MAX * line) return 0;
  // The covariance term that makes the parabola pass through the centre.
  const cov = 2 * vc - line;
  const model = (t: number): number => (1 - t) * (1 - t) * va + t * t * vb + 2 * t * (1 - t) * cov;
  const misfit = Math.max(
    Math.abs(s.q1.variance - model(0.25)),
    Math.abs(s.q3.variance - model(0.75)),
  );
  if (misfit > FIT_TOL * high) return 0;
  for (let k = 0; k < 3; k++) {
    const mean = (t: number): number => s.a.mean[k]! * (1 - t) + s.b.mean[k]! * t;
    if (Math.abs(s.c.mean[k]! - mean(0.5)) > MEAN_TOL) return 0;
    if (Math.abs(s.q1.mean[k]! - mean(0.25)) > MEAN_TOL) return 0;
    if (Math.abs(s.q3.mean[k]! - mean(0.75)) > MEAN_TOL) return 0;
  }
  const sag = Math.min(1, (1 - vc / line) / 0.5);
  return sag * (1 - misfit / (FIT_TOL * high));
}

/**
 * The bottom of a fade through black inside luma[from..to]: the middle of the samples within 5 %
 * of the way from the darkest one up to the lit pictures around (`lit`), so a black hold is
 * split in two and a dark shot fading in slowly does not drag the boundary into itself.
 */
export function fadeBottom(luma: (i: number) => number, from: number, to: number, lit: number) {
  let darkest = from;
  for (let i = from; i <= to; i++) if (luma(i) < luma(darkest)) darkest = i;
  const limit = luma(darkest) + 0.05 * Math.max(0, lit - luma(darkest));
  let a = darkest;
  let b = darkest;
  while (a > from && luma(a - 1) <= limit) a--;
  while (b < to && luma(b + 1) <= limit) b++;
  return Math.round((a + b) / 2);
}
