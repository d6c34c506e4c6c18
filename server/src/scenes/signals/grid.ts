// Pure measurements and tests behind scene detection (detectors/), kept apart so they can
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
 * What is left of b once it is fitted as gain·a + offset (one gain and offset for the whole
 * picture, least squares, the gain not negative): a step of a fade to black or to white, or a
 * card of one hue turned darker, leaves almost nothing; another picture, or another hue, leaves
 * much. Mean absolute residual.
 */
export function affineResidual(a: Grid, b: Grid): number {
  const n = a.length;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    sa += a[i]!;
    sb += b[i]!;
  }
  const ma = sa / n;
  const mb = sb / n;
  let cov = 0;
  let va = 0;
  for (let i = 0; i < n; i++) {
    cov += (a[i]! - ma) * (b[i]! - mb);
    va += (a[i]! - ma) ** 2;
  }
  const gain = va > 1e-9 ? cov / va : 0;
  // A negative gain turns the picture into its negative: no fade does that.
  if (gain < 0) return Infinity;
  let r = 0;
  for (let i = 0; i < n; i++) r += Math.abs(b[i]! - (mb + gain * (a[i]! - ma)));
  return r / n;
}

/** Gains a camera's exposure and white balance change a channel by between two samples. */
const CAMERA_GAIN = [2 / 3, 3 / 2] as const;

/**
 * What is left of b once each channel is fitted as gain·a + offset (least squares, one gain and
 * offset a channel, the gain within CAMERA_GAIN): the change a camera's own exposure and white
 * balance can make leaves almost nothing, another picture leaves much. Mean absolute residual,
 * 0..1; Infinity when a gain is out of reach (a cut to a flat picture fits with a gain of 0).
 */
export function photometricResidual(a: Grid, b: Grid): number {
  const n = a.length / 3;
  let r = 0;
  for (let k = 0; k < 3; k++) {
    let sa = 0;
    let sb = 0;
    for (let i = k; i < a.length; i += 3) {
      sa += a[i]!;
      sb += b[i]!;
    }
    const ma = sa / n;
    const mb = sb / n;
    let cov = 0;
    let va = 0;
    for (let i = k; i < a.length; i += 3) {
      cov += (a[i]! - ma) * (b[i]! - mb);
      va += (a[i]! - ma) ** 2;
    }
    const gain = va > 1e-9 ? cov / va : 0;
    if (gain < CAMERA_GAIN[0] || gain > CAMERA_GAIN[1]) return Infinity;
    for (let i = k; i < a.length; i += 3) r += Math.abs(b[i]! - (mb + gain * (a[i]! - ma)));
  }
  return r / a.length;
}

/**
 * The change from a to b once each channel's mean shift is taken away: how much the picture's
 * pattern changed, beyond its light. A flash lifts the light of the same picture and leaves
 * little; a cut to another picture leaves about its whole change. Mean absolute residual, 0..1.
 */
export function patternChange(a: Grid, b: Grid): number {
  const n = a.length / 3;
  let r = 0;
  for (let k = 0; k < 3; k++) {
    let shift = 0;
    for (let i = k; i < a.length; i += 3) shift += b[i]! - a[i]!;
    shift /= n;
    for (let i = k; i < a.length; i += 3) r += Math.abs(b[i]! - a[i]! - shift);
  }
  return r / a.length;
}

/** Mean absolute deviation of a grid's values from their mean: its detail, 0..1. */
export function spread(g: Grid): number {
  let sum = 0;
  for (let i = 0; i < g.length; i++) sum += g[i]!;
  const mean = sum / g.length;
  let dev = 0;
  for (let i = 0; i < g.length; i++) dev += Math.abs(g[i]! - mean);
  return dev / g.length;
}

/** Per block of a grid, the mean absolute change of its three channels from a to b. */
export function blockSteps(a: Grid, b: Grid): Float32Array {
  const steps = new Float32Array(a.length / 3);
  for (let j = 0; j < steps.length; j++) {
    const p = 3 * j;
    steps[j] =
      (Math.abs(b[p]! - a[p]!) +
        Math.abs(b[p + 1]! - a[p + 1]!) +
        Math.abs(b[p + 2]! - a[p + 2]!)) /
      3;
  }
  return steps;
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
