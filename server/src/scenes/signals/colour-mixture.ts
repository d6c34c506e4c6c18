// Gradual transitions between shots that move by themselves (pans, zooms, animated patterns),
// which the block evidence of detectors/gradual-evidence.ts loses in the shots' own change. A colour histogram
// does not care where a colour is, so motion inside a shot changes it little, while a wipe's
// picture is exactly the before-picture's histogram mixed with the after-picture's in the share
// the edge has crossed, and a dissolve's moves from one to the other too. Over a window of
// 2 x HALF samples: the two ends far apart in histogram, each end's shot steady in histogram over
// half a window, and every picture between on the line from one end's histogram to the other's,
// its share going up steadily (not at once: a cut) and through one half at the centre.

/** Levels per channel of the histogram (4 x 4 x 4 bins). */
const LEVELS = 4;
const BINS = LEVELS ** 3;
/** Half-widths of the windows, seconds: wipes and dissolves up to 2.5 s fit inside the widest. */
const HALF_SECONDS = [0.8, 1.2];
/** Pictures looked at outside a window on each side, seconds. */
const OUTSIDE_SECONDS = 0.8;
/** The ends' histograms differ by at least this (half the L1 distance, 0..1). */
const MIX_MIN = 0.5;
/**
 * Outside the window the shots' colours go on the same way at most this far (share of the way
 * between the ends, both sides together, and either side).
 */
const DRIFT_SUM = 0.08;
const DRIFT_MAX = 0.1;
/**
 * The crossing may lie this far (samples) from the window's middle: a shot moving on after the
 * transition drags the far end's colours, so each window's crossing lies a little later than its
 * middle and a tolerance of half a sample can miss it at every window (wipes into pans).
 */
const CENTRE_OFF = 0.75;
/** The share may fall back by this much in all (noise of motion inside the shots). */
const BACKWARDS = 0.2;

/** Colour histogram of an rgb24 frame, normalised to sum 1. */
export function colourHistogram(frame: Uint8Array): Float32Array {
  const h = new Float32Array(BINS);
  const shift = 8 - Math.log2(LEVELS);
  for (let p = 0; p < frame.length; p += 3) {
    h[
      ((frame[p]! >> shift) * LEVELS + (frame[p + 1]! >> shift)) * LEVELS + (frame[p + 2]! >> shift)
    ]! += 1;
  }
  const n = frame.length / 3;
  for (let b = 0; b < BINS; b++) h[b] = h[b]! / n;
  return h;
}

/** Half the L1 distance of two histograms: the share of pixels that changed bin, 0..1. */
export function histDist(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / 2;
}

/**
 * The share of the way from histogram a to histogram b that h has gone (its projection on the
 * line from a to b: 0 at a, 1 at b, beyond when it went further the same way).
 */
function shareOf(h: Float32Array, a: Float32Array, b: Float32Array, norm: number): number {
  let dot = 0;
  for (let k = 0; k < BINS; k++) dot += (h[k]! - a[k]!) * (b[k]! - a[k]!);
  return dot / norm;
}

/**
 * Where the histograms hs cross from the picture at index `q` to the one at index
 * hs.length - 1 - q (the window; the q pictures outside it on each side show whether its shots
 * stay put), as an index into hs (fractional), or undefined when they are no steady passage
 * from one end's colours to the other's, over two samples or more, with the colours staying put
 * outside: a zoom or a pan that drifts the colours keeps drifting past the window's ends.
 */
export function mixtureCrossing(hs: readonly Float32Array[], q: number): number | undefined {
  const n = hs.length;
  const a = hs[q]!;
  const b = hs[n - 1 - q]!;
  let norm = 0;
  for (let k = 0; k < BINS; k++) norm += (b[k]! - a[k]!) ** 2;
  if (norm < 1e-9) return undefined;
  const share = hs.map((h) => shareOf(h, a, b, norm));
  // Outside the window, the farther half of each side: the shots' colours stay where they were.
  let before = 0;
  let after = 0;
  const far = Math.max(1, q >> 1);
  for (let i = 0; i < far; i++) {
    before -= share[i]!;
    after += share[n - 1 - i]! - 1;
  }
  before /= far;
  after /= far;
  if (before + after > DRIFT_SUM || Math.max(before, after) > DRIFT_MAX) return undefined;
  const inside = share.slice(q, n - q).map((f) => Math.min(1, Math.max(0, f)));
  let back = 0;
  for (let i = 1; i < inside.length; i++) back += Math.max(0, inside[i - 1]! - inside[i]!);
  if (back > BACKWARDS) return undefined;
  // Over two samples or more: the last one still near the start and the first one near the end.
  const first = inside.findIndex((f) => f > 0.15);
  const last = inside.findLastIndex((f) => f < 0.85);
  if (first < 0 || last < 0 || last - first < 1) return undefined;
  const mid = inside.findIndex((f) => f >= 0.5);
  if (mid < 1) return undefined;
  const f0 = inside[mid - 1]!;
  return q + mid - 1 + (0.5 - f0) / Math.max(1e-6, inside[mid]! - f0);
}

/**
 * The histograms of the last samples and the gradual transitions they show, judged `lag` samples
 * behind the newest (the window and the pictures after it must have arrived).
 */
export class MixtureEvidence {
  private readonly halves: number[];
  /** Samples looked at on each side of a window. */
  private readonly outside: number;
  /** Half-width of the widest window. */
  readonly half: number;
  readonly lag: number;

  /** How many samples behind the newest a centre is judged, at `fps` samples a second. */
  static lagAt(fps: number): number {
    const half = Math.max(...HALF_SECONDS.map((s) => Math.max(2, Math.round(s * fps))));
    return half + Math.max(2, Math.round(OUTSIDE_SECONDS * fps));
  }

  /** `hist`: sample i's colour histogram (colourHistogram), while the last 2 lag + 2 are kept. */
  constructor(
    fps: number,
    private readonly hist: (i: number) => Float32Array | undefined,
  ) {
    this.halves = HALF_SECONDS.map((s) => Math.max(2, Math.round(s * fps)));
    this.half = Math.max(...this.halves);
    this.outside = Math.max(2, Math.round(OUTSIDE_SECONDS * fps));
    this.lag = MixtureEvidence.lagAt(fps);
  }

  /**
   * Whether a gradual transition centred on sample c (its middle between c - 1 and c) runs between
   * two shots steady in colour: the sample nearest its middle, or undefined.
   */
  at(c: number): number | undefined {
    const q = this.outside;
    for (const h of this.halves) {
      const a = this.hist(c - h);
      const b = this.hist(c + h);
      if (!a || !b || c - h - q < 0 || histDist(a, b) < MIX_MIN) continue;
      const hs: Float32Array[] = [];
      for (let i = c - h - q; i <= c + h + q; i++) {
        const x = this.hist(i);
        if (x) hs.push(x);
      }
      if (hs.length < 2 * (h + q) + 1) continue;
      const x = mixtureCrossing(hs, q);
      if (x === undefined) continue;
      const at = c - h - q + x;
      if (Math.abs(at - (c - 0.5)) <= CENTRE_OFF) return Math.round(at);
    }
    return undefined;
  }
}
