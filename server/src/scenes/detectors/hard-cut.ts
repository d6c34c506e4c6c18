// Hard cuts in the scene detector's samples (HardCuts, at the end, is the detector): a jump
// between two samples far above the recent frame-to-frame change (in fast camera moves: far above
// what a shift or zoom leaves unexplained), or a smaller one between still pictures (slides) or
// far above the change on both sides, that is not a flash of up to FLASH samples, nor a step of a
// fade (the same picture, darker or lighter, and still changing a sample before or after: a cut
// between a light and a dark title card changes in one sample), nor a camera's exposure step.
import { movedDist } from '../signals/camera-move.ts';
import {
  affineResidual,
  dist,
  patternChange,
  photometricResidual,
  spread,
} from '../signals/grid.ts';
import { GRID_H, GRID_W, type RecentSamples } from '../samples.ts';
import type { VisualSamples } from '../../media/visual.ts';
import type { Candidates, Detector } from '../detector.ts';
import type { Measurements } from '../measurements.ts';
import { FLASH, FLAT_SD, MOVING, STILL, STILL_CUT_MIN } from '../thresholds.ts';

const CUT_MIN = 0.12;
const CUT_RATIO = 3;
const STILL_CUT_RATIO = 6;
/**
 * A jump this large that stands STILL_CUT_RATIO above the change on both sides is a cut
 * (PySceneDetect's AdaptiveDetector floor, 15 of 255, 0.0588; it was 0.06): a webcam's head
 * movements jump 0.03 to 0.05 in a quiet shot, a cut between two framings of one room 0.0598
 * (cap13, close to wide) and more.
 */
const ADAPTIVE_CUT_MIN = 15 / 255;
/** In moving pictures: a jump this far above the recent change is checked against camera moves. */
const CUT_MOVING_RATIO = 1.4;
/** A cut's change beyond exposure and white balance, at least this many times the usual change. */
const CONTENT_RATIO = 3;
/** A jump is photometric when a gain and offset a channel leave at most this share of it. */
const PHOTOMETRIC_SHARE = 0.3;
/** A neighbouring step of a fade changes the brightness by at least this share of the step. */
const FADE_STEP = 0.1;

export class CutCheck {
  constructor(
    private readonly visual: VisualSamples,
    private readonly samples: RecentSamples,
  ) {}

  /**
   * Whether the change into sample i is a cut. Asked FLASH samples after i arrived (whether the
   * picture came back).
   */
  isCut(i: number): boolean {
    const d = this.visual.motion.get(i);
    const m = (j: number): number => (j < this.visual.count ? this.visual.motion.get(j) : 0);
    // The mean of the five changes before but the largest: a flash among them does not hide the
    // cut after it.
    const recent: number[] = [];
    for (let j = i - 1; j >= Math.max(1, i - 5); j--) recent.push(m(j));
    const largest = Math.max(0, ...recent);
    const baseline =
      recent.length > 1 ? (recent.reduce((x, y) => x + y, 0) - largest) / (recent.length - 1) : 0;
    // Between still pictures, a small jump that stays still after is a cut (slides, title cards);
    // the steps of a fade, a dissolve or a wipe go on the next sample (or the one after, when the
    // reference-only decode repeated a picture). And a jump far above the change on both sides of
    // it (the rolling baseline of AdaptiveDetector in PySceneDetect: five samples before and FLASH
    // after), from its content floor on: a cut into a view that moves a little. The baseline
    // leaves out its largest change, as `baseline` does (a cut into a shot that moves at once
    // raised it: a wide view of cap13 to a close one, 0.086 at 5.5 times the mean, 8 without its
    // largest), and the jump must be one step, larger than its two neighbours together: a fast
    // head turn's largest step (0.075 between 0.056 and 0.033) is not.
    const around = [...recent];
    for (let j = i + 1; j <= i + FLASH && j < this.visual.count; j++) around.push(m(j));
    const aroundLargest = Math.max(0, ...around);
    const twoSided =
      around.length > 1
        ? (around.reduce((x, y) => x + y, 0) - aroundLargest) / (around.length - 1)
        : 0;
    const still =
      (d >= STILL_CUT_MIN &&
        baseline < STILL &&
        d >= STILL_CUT_RATIO * baseline &&
        Math.max(m(i + 1), m(i + 2)) < d / STILL_CUT_RATIO) ||
      (d >= ADAPTIVE_CUT_MIN && d >= STILL_CUT_RATIO * twoSided && m(i - 1) + m(i + 1) < d);
    if (d < CUT_MIN && !still) return false;
    if (!still && d < CUT_MOVING_RATIO * Math.max(baseline, 0.01)) return false;
    const before = this.samples.grid(i - 1);
    const now = this.samples.grid(i);
    if (!before || !now) return false;
    // A camera's exposure or white balance stepping in one sample changes each channel by a gain
    // and an offset: when that explains the jump, what it leaves must stand far above the shot's
    // usual change.
    const content = photometricResidual(before, now);
    if (content < PHOTOMETRIC_SHARE * d && content < CONTENT_RATIO * baseline) return false;
    if (this.isFlash(i, d, baseline)) return false;
    // A step of a fade only darkens or brightens the same picture (towards black or white), and
    // so does a cut between two title cards of one layout (light to dark): a fade keeps going the
    // next or previous sample, a cut changes in one.
    // A cut to a dark, nearly flat picture fits too (a gain near 0): a fade step leaves little
    // of the new picture's own detail unexplained.
    const residual = affineResidual(before, now);
    if (
      residual < 0.25 * d &&
      (residual < 0.5 * spread(now) || spread(now) < FLAT_SD / 3) &&
      this.brightnessDrifts(i)
    )
      return false;
    // In fast camera moves the usual change is large too: what a move cannot explain decides.
    if (!still && d < CUT_RATIO * Math.max(baseline, 0.01)) {
      const left = this.samples.movedAt(i);
      const usual = Math.max(
        this.samples.movedAt(i - 1),
        this.samples.movedAt(i + 1 < this.visual.count ? i + 1 : i - 1),
      );
      if (left < CUT_MIN || left < CUT_RATIO * Math.max(usual, 0.01)) return false;
    }
    return true;
  }

  /**
   * Whether the jump into sample i is a flash: within FLASH samples the picture is back to what
   * it was before the jump (up to a camera move meanwhile, when the shot was moving), or the jump
   * is the return.
   */
  private isFlash(i: number, d: number, baseline: number): boolean {
    for (let p = i - 1; p >= Math.max(0, i - 1 - FLASH); p--) {
      for (let q = i; q <= Math.min(this.visual.count - 1, p + FLASH + 1); q++) {
        if (q - p < 2) continue;
        const a = this.samples.grid(p);
        const b = this.samples.grid(q);
        if (!a || !b) continue;
        const back = dist(a, b);
        if (back < 0.5 * d) return true;
        if (baseline < MOVING || back > 2 * d) continue;
        if (movedDist(a, b, GRID_W, GRID_H, 0.5 * d) < 0.5 * d) return true;
      }
    }
    return false;
  }

  /** Whether the brightness also moves, the same way, from sample i-2 to i-1 or i to i+1. */
  private brightnessDrifts(i: number): boolean {
    const step = (j: number): number => this.visual.luma.get(j) - this.visual.luma.get(j - 1);
    const now = step(i);
    const along = (j: number): boolean =>
      j >= 1 && j < this.visual.count && step(j) * Math.sign(now) >= FADE_STEP * Math.abs(now);
    return along(i - 1) || along(i + 1);
  }
}

/** Hard cuts as a detector: each sample judged FLASH samples after it arrived. */
export class HardCuts implements Detector {
  readonly lag = FLASH;
  private readonly check: CutCheck;

  constructor(
    private readonly m: Measurements,
    private readonly found: Candidates,
  ) {
    this.check = new CutCheck(m.visual, m.recent);
  }

  push(): void {
    const n = this.m.count;
    if (n >= FLASH + 2) this.judge(n - 1 - FLASH);
  }

  finish(): void {
    const n = this.m.count;
    for (let i = Math.max(1, n - FLASH); i < n; i++) this.judge(i);
  }

  private judge(i: number): void {
    if (!this.check.isCut(i)) return;
    this.found.cuts.push(i);
    // isCut read both pictures: they are still in the ring.
    this.found.cutStrength.set(
      i,
      patternChange(this.m.recent.grid(i - 1)!, this.m.recent.grid(i)!),
    );
  }
}
