// A wipe's evidence on the detector's coarse grids: an edge that crosses the picture, each block
// changing once as a plane in x and y passes it (detectors/gradual-evidence.ts asks it per window).

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
 * cut), and the wipe's middle falls at the centre. Motion inside the shots changes blocks
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
  // The wipe's middle at the centre (steps[i] ends at sample i of the window, n / 2 the centre):
  // halfway between the median of the blocks seen crossing and where the fitted edge crosses the
  // picture's middle. The blocks a moving shot changes all the time do not count, so out of (or
  // into) one the median lies towards the still shot's side, up to 0.6-0.9 s from the middle of
  // a 2 s wipe; the edge alone, extrapolated over the blocks not seen, saw wipes in zooms and at
  // dissolves' starts (issue 44).
  const middle = (q(0.5) + fit.at((w - 1) / 2, (h - 1) / 2)) / 2;
  if (Math.abs(middle - (n / 2 - 0.5)) > 1) return 0;
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
