// Where a blend's colours pass: the mean colour of each sample, and the middle of the ramp it
// climbs from one shot's colour to the next (fitRamp). A dissolve into a moving shot shows its
// blend evidence in one half only; the ramp places it at its middle (combine.ts asks).
import { GrowArray } from '../../media/visual.ts';

/** A blend's mean-colour ramp is looked for this far (seconds) beyond its evidence. */
const RAMP_SECONDS = 2.5;
/**
 * The ramp must explain this much of the mean colour's course (R²), hold its colour at least
 * RAMP_FLAT seconds at both ends and last RAMP_MIN to RAMP_MAX seconds: shots that move drift
 * their mean colour too, and a ramp that runs into the window's ends is their drift.
 */
const RAMP_FIT = 0.98;
const RAMP_FLAT = 0.4;
const RAMP_MIN = 0.5;
const RAMP_MAX = 2.8;
/** The ramp's middle lies at most this far (seconds) outside the evidence it places. */
const RAMP_MOVE = 1;

export class ColourRamp {
  /** Each sample's mean colour (r, g, b, 0..1). */
  private readonly means = new GrowArray(3);
  /** RAMP_SECONDS in samples: how far from the evidence the ramp is looked for. */
  readonly reach: number;
  private readonly flat: number;
  private readonly min: number;
  private readonly max: number;
  private readonly move: number;

  constructor(fps: number) {
    const s = (seconds: number): number => Math.round(seconds * fps);
    this.reach = s(RAMP_SECONDS);
    this.flat = s(RAMP_FLAT);
    this.min = s(RAMP_MIN);
    this.max = s(RAMP_MAX);
    this.move = s(RAMP_MOVE);
  }

  /** The next sample's mean colour. */
  push(mean: readonly number[]): void {
    this.means.push(...mean);
  }

  /**
   * The middle of the mean colour's ramp over samples from..to, when a ramp explains the mean
   * colour well there and lies near the evidence lo..hi.
   */
  middle(from: number, to: number, lo: number, hi: number): number | undefined {
    const m = (i: number, k: number): number => this.means.get(i, k);
    const fa = [0, 1, 2].map((k) => (m(from, k) + m(from + 1, k) + m(from + 2, k)) / 3);
    const fb = [0, 1, 2].map((k) => (m(to, k) + m(to - 1, k) + m(to - 2, k)) / 3);
    const d = fa.map((v, k) => fb[k]! - v);
    const norm = d.reduce((x, y) => x + y * y, 0);
    if (norm < 0.03 ** 2) return undefined;
    const p: number[] = [];
    for (let i = from; i <= to; i++) {
      let dot = 0;
      for (let k = 0; k < 3; k++) dot += (m(i, k) - fa[k]!) * d[k]!;
      p.push(dot / norm);
    }
    const ramp = fitRamp(p, this.min);
    if (!ramp || ramp.fit < RAMP_FIT || ramp.end - ramp.start > this.max) return undefined;
    if (ramp.start < this.flat || ramp.end > p.length - 1 - this.flat) return undefined;
    const mid = Math.round(from + (ramp.start + ramp.end) / 2);
    return mid < lo - this.move || mid > hi + this.move ? undefined : mid;
  }
}

/** The ramp fitted by rampMiddle: where it starts and ends, and how much of the change it explains. */
export interface Ramp {
  start: number;
  end: number;
  /** Share of the series' variance around its mean the ramp explains (R², 0..1). */
  fit: number;
}

/**
 * The mean colour's passage from one shot to the next over samples from..to: the series `p`
 * (the mean colour projected on the line from the first pictures' to the last ones') fitted as
 * flat, then straight, then flat (least squares over every start and end). A dissolve or a wipe
 * moves the mean colour along such a ramp whatever moves inside the shots (a blend of the means),
 * so its middle is the transition's, where blend evidence may have seen only one half of it.
 */
export function fitRamp(p: readonly number[], minLength = 2): Ramp | undefined {
  const n = p.length;
  if (n < minLength + 2) return undefined;
  const mean = p.reduce((x, y) => x + y, 0) / n;
  let total = 0;
  for (const v of p) total += (v - mean) ** 2;
  if (total <= 0) return undefined;
  let best: Ramp | undefined;
  let bestErr = Infinity;
  for (let s = 0; s < n - 1; s++) {
    for (let e = s + minLength; e < n; e++) {
      // p ≈ a·(1-u) + b·u, u = 0 up to s, rising to 1 at e: two parameters by least squares.
      let suu = 0;
      let suv = 0;
      let svv = 0;
      let spu = 0;
      let spv = 0;
      for (let i = 0; i < n; i++) {
        const u = i <= s ? 0 : i >= e ? 1 : (i - s) / (e - s);
        const v = 1 - u;
        suu += u * u;
        suv += u * v;
        svv += v * v;
        spu += p[i]! * u;
        spv += p[i]! * v;
      }
      const det = suu * svv - suv * suv;
      if (Math.abs(det) < 1e-12) continue;
      const b = (spu * svv - spv * suv) / det;
      const a = (spv * suu - spu * suv) / det;
      let err = 0;
      for (let i = 0; i < n; i++) {
        const u = i <= s ? 0 : i >= e ? 1 : (i - s) / (e - s);
        err += (p[i]! - a * (1 - u) - b * u) ** 2;
        if (err >= bestErr) break;
      }
      if (err < bestErr) {
        bestErr = err;
        best = { start: s, end: e, fit: 1 - err / total };
      }
    }
  }
  return best;
}
