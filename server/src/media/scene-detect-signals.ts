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

/** A block counts in a wipe when its change over the window is at least this (0..1). */
const WIPE_BLOCK_MIN = 0.06;
/** Share of the blocks the edge must cross inside the window. */
const WIPE_SHARE = 0.3;
/** The crossing (two samples) is this many times the block's usual change over two samples. */
const WIPE_OUTLIER = 4;
/** The crossing is this many times any other change of the block over two samples. */
const WIPE_ONCE = 3;
/** How well a plane in x and y must explain when the crossed blocks changed (R²). */
const WIPE_FIT = 0.8;
/** A block crossed more than this many samples off the plane is not on the edge (motion). */
const WIPE_OFF = 1.5;

/**
 * The evidence for a wipe centred on the middle of `steps` (per sample, the block changes from the
 * sample before: see blockSteps): an edge moving across the picture changes each block once, in
 * one or two samples, far more than the block changes otherwise, at a time that moves steadily
 * across the picture (a plane in x and y fits the times), over several samples (at once it is a
 * cut), and the middle block crossing falls at the centre. Motion inside the shots changes blocks
 * often or in no order; a flash changes them all at once. Returns the share of the picture that
 * crossed (0 = no wipe).
 */
export function wipeEvidence(steps: readonly Float32Array[], w: number, h: number): number {
  const n = steps.length;
  const blocks = w * h;
  let times: number[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  // Fewer crossed blocks than the share wanted give no wipe, whatever the fits below say.
  const wanted = WIPE_SHARE * blocks;
  for (let j = 0; j < blocks; j++) {
    if (times.length + (blocks - j) < wanted) return 0;
    let total = 0;
    let best = 0;
    let at = 0;
    for (let i = 0; i < n; i++) {
      total += steps[i]![j]!;
      const pair = steps[i]![j]! + (i + 1 < n ? steps[i + 1]![j]! : 0);
      if (pair > best) {
        best = pair;
        at = i;
      }
    }
    if (best < WIPE_BLOCK_MIN) continue;
    const usualPair = (2 * (total - best)) / Math.max(1, n - 2);
    if (best < WIPE_OUTLIER * usualPair) continue;
    // Once only: a moving shape changes a block as it comes and again as it goes.
    let other = 0;
    for (let i = 0; i + 1 < n; i++) {
      if (Math.abs(i - at) >= 2) other = Math.max(other, steps[i]![j]! + steps[i + 1]![j]!);
    }
    if (best < WIPE_ONCE * other) continue;
    const second = at + 1 < n ? steps[at + 1]![j]! : 0;
    times.push(at + second / best);
    xs.push(j % w);
    ys.push(Math.floor(j / w));
  }
  if (times.length < wanted) return 0;
  // Blocks whose own content moves may step at other times: fit the edge, keep the blocks near
  // it (chosen again from all of them each round, so a first fit pulled by them recovers), refit.
  let fit = planeFit(xs, ys, times) ?? planeThrough(xs, ys, times);
  const tried = planeThrough(xs, ys, times);
  const inlierCount = (p: Plane): number =>
    times.filter((t, k) => Math.abs(t - p.at(xs[k]!, ys[k]!)) <= WIPE_OFF).length;
  if (fit && tried && inlierCount(tried) > inlierCount(fit)) fit = tried;
  let inliers = { times, xs, ys };
  for (let round = 0; round < 4 && fit; round++) {
    const plane = fit;
    const near = times.map((t, k) => Math.abs(t - plane.at(xs[k]!, ys[k]!)) <= WIPE_OFF);
    const pick = (v: number[]): number[] => v.filter((_, k) => near[k]);
    inliers = { times: pick(times), xs: pick(xs), ys: pick(ys) };
    fit = planeFit(inliers.xs, inliers.ys, inliers.times);
  }
  times = inliers.times;
  const count = times.length;
  if (!fit || fit.r2 < WIPE_FIT || count < wanted) return 0;
  const sorted = [...times].sort((p, q) => p - q);
  const q = (f: number): number => sorted[Math.min(count - 1, Math.floor(f * count))]!;
  // The middle crossing at the centre (steps[i] ends at sample i of the window, n / 2 the centre).
  if (Math.abs(q(0.5) - (n / 2 - 0.5)) > 1) return 0;
  if (q(0.9) - q(0.1) < 2) return 0;
  return count / blocks;
}

/**
 * The plane through three blocks that most blocks lie near, of a few dozen triples drawn by a
 * fixed sequence (a robust start when moving content pulls the least-squares plane off).
 */
function planeThrough(xs: number[], ys: number[], ts: number[]): Plane | undefined {
  const n = ts.length;
  if (n < 3) return undefined;
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * n);
  };
  let best: Plane | undefined;
  let bestCount = 0;
  for (let k = 0; k < 40; k++) {
    const [i, j, l] = [next(), next(), next()];
    const fit = planeFit(
      [xs[i]!, xs[j]!, xs[l]!],
      [ys[i]!, ys[j]!, ys[l]!],
      [ts[i]!, ts[j]!, ts[l]!],
    );
    if (!fit) continue;
    let count = 0;
    for (let m = 0; m < n; m++) if (Math.abs(ts[m]! - fit.at(xs[m]!, ys[m]!)) <= WIPE_OFF) count++;
    if (count > bestCount) {
      best = fit;
      bestCount = count;
    }
  }
  return best;
}

interface Plane {
  at: (x: number, y: number) => number;
  r2: number;
}

/** The least-squares plane t = a + b·x + c·y and its R² (none without spread in t). */
function planeFit(xs: number[], ys: number[], ts: number[]): Plane | undefined {
  const n = ts.length;
  const mean = (v: number[]): number => v.reduce((s, x) => s + x, 0) / n;
  const mx = mean(xs);
  const my = mean(ys);
  const mt = mean(ts);
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  let sxt = 0;
  let syt = 0;
  let stt = 0;
  for (let i = 0; i < n; i++) {
    const x = xs[i]! - mx;
    const y = ys[i]! - my;
    const t = ts[i]! - mt;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
    sxt += x * t;
    syt += y * t;
    stt += t * t;
  }
  if (n < 3 || stt <= 1e-9) return undefined;
  const det = sxx * syy - sxy * sxy;
  // All blocks in one row or column: a line along it.
  const b = Math.abs(det) < 1e-9 ? (sxx > 0 ? sxt / sxx : 0) : (sxt * syy - syt * sxy) / det;
  const c =
    Math.abs(det) < 1e-9 ? (sxx > 0 ? 0 : syy > 0 ? syt / syy : 0) : (syt * sxx - sxt * sxy) / det;
  return { at: (x, y) => mt + b * (x - mx) + c * (y - my), r2: (b * sxt + c * syt) / stt };
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
// The smallest moves first: a still or slowly moving picture is matched at once, and the shifts
// after it are then given up early (see movedDist). The answer does not depend on the order.
SHIFTS.sort(
  (p, q) =>
    Math.abs(p.dx) + Math.abs(p.dy) - (Math.abs(q.dx) + Math.abs(q.dy)) ||
    Number(p.zoom !== 1) - Number(q.zoom !== 1),
);

/**
 * A move on a grid of w x h blocks: the blocks of b it compares (rows ys, columns xs, increasing)
 * with the blocks of a they came from (rows sys, columns sxs), and how many values that is.
 */
interface ShiftMap {
  ys: Int32Array;
  sys: Int32Array;
  xs: Int32Array;
  sxs: Int32Array;
  count: number;
}

/** The moves of SHIFTS laid out for one grid size (made once per size). */
const shiftMaps = new Map<string, ShiftMap[]>();

/** The positions along one axis of n samples that a move (zoom about c, then shift d) keeps in
 *  the picture, and the position each one comes from. */
function shiftedAxis(n: number, c: number, zoom: number, d: number): [number[], number[]] {
  const at: number[] = [];
  const from: number[] = [];
  for (let i = 0; i < n; i++) {
    const src = Math.round(c + (i - c) * zoom + d);
    if (src < 0 || src >= n) continue;
    at.push(i);
    from.push(src);
  }
  return [at, from];
}

function shiftMapsFor(w: number, h: number): ShiftMap[] {
  const key = `${w}x${h}`;
  const known = shiftMaps.get(key);
  if (known) return known;
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  const maps: ShiftMap[] = [];
  for (const { zoom, dx, dy } of SHIFTS) {
    const [ys, sys] = shiftedAxis(h, cy, zoom, dy);
    const [xs, sxs] = shiftedAxis(w, cx, zoom, dx);
    const count = ys.length * xs.length * 3;
    // A shift that leaves less than half the picture overlapping proves nothing.
    if (count <= (w * h * 3) / 2) continue;
    maps.push({
      ys: Int32Array.from(ys),
      sys: Int32Array.from(sys),
      xs: Int32Array.from(xs),
      sxs: Int32Array.from(sxs),
      count,
    });
  }
  shiftMaps.set(key, maps);
  return maps;
}

/**
 * The smallest difference between b and a shifted or zoomed copy of a (about the centre): what
 * is left of the change from a to b once a camera move has been allowed for. With `enough`, only
 * whether that is below `enough` is answered: the first move found below it is returned, and
 * otherwise some value not below it (a move is given up once its sum so far reaches it).
 */
export function movedDist(a: Grid, b: Grid, w: number, h: number, enough = 0): number {
  let best = Infinity;
  for (const { ys, sys, xs, sxs, count } of shiftMapsFor(w, h)) {
    // A move is given up once its partial mean reaches what it must beat: the terms are not
    // negative, so its whole mean could not be below it (sums of floats only grow too).
    const bound = enough > 0 ? enough : best;
    let sum = 0;
    let row = 0;
    for (; row < ys.length; row++) {
      const pRow = ys[row]! * w;
      const qRow = sys[row]! * w;
      for (let k = 0; k < xs.length; k++) {
        const p = (pRow + xs[k]!) * 3;
        const q = (qRow + sxs[k]!) * 3;
        sum +=
          Math.abs(b[p]! - a[q]!) +
          Math.abs(b[p + 1]! - a[q + 1]!) +
          Math.abs(b[p + 2]! - a[q + 2]!);
      }
      if (sum / count >= bound) break;
    }
    if (row < ys.length) continue;
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
