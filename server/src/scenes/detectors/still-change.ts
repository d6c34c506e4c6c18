// Gradual changes between still pictures: a dissolve or a wipe from one slide or title card to
// another of about the same brightness and colours. Its steps are too small for the blend and
// edge evidence of gradual-evidence.ts (whose ends must be far apart), but the pictures either side
// do not change at all: a short run of changing samples between two still holds is a transition,
// its middle the boundary, when the pictures either side differ and the run went from one to the
// other directly (each block once, one way; or through black or white, a fade), not back and
// forth as a camera's still shot does when someone moves in it for a moment (StillChanges).
import type { Candidates, Detector } from '../detector.ts';
import type { Measurements } from '../measurements.ts';
import { blockSteps, dist } from '../signals/grid.ts';
import { STILL, STILL_CUT_MIN } from '../thresholds.ts';

/**
 * At least this share of the blocks' summed steps over a run is their net change (monotone):
 * dissolves and wipes between slides 0.8 to 1, a webcam's still shot moving for a moment 0.17.
 */
const MONOTONE = 0.5;
/** Still samples wanted on each side of a run. */
const HOLD = 5;
/** The longest run, seconds (the longest dissolves the detector looks for). */
const LONGEST_SECONDS = 2;
/**
 * A run's mean change at least this many times its holds' (the still samples either side): a
 * transition stands out of the shot's own noise, as AdaptiveDetector's jump must stand out of the
 * frames around it. Slides' dissolves and fades 32 or more (their holds are nearly 0), real
 * footage's transitions between still webcam shots 6.9 or more; a slow lean between two holds of
 * a webcam's very still close view 2.5 (real footage seed 99 video 1).
 */
const ABOVE_HOLDS = 4;

/** The samples `from`..`to` changed (each from the one before), with still holds either side. */
export interface StillRun {
  from: number;
  to: number;
}

export class StillChange {
  /** Still samples just before the current sample. */
  private still = 0;
  /** Still samples before the current run (the hold before it). */
  private before = 0;
  /** First changing sample of the current run, -1 without a run. */
  private start = -1;
  private readonly longest: number;

  constructor(fps: number) {
    this.longest = Math.round(LONGEST_SECONDS * fps);
  }

  /** Sample i's change; a run closed by a hold ending at i, when it had a hold before too. */
  push(i: number, change: number): StillRun | undefined {
    if (change >= STILL) {
      if (this.start < 0) {
        this.start = i;
        this.before = this.still;
      }
      this.still = 0;
      return undefined;
    }
    this.still++;
    if (this.start < 0 || this.still < HOLD) return undefined;
    const run = { from: this.start, to: i - HOLD };
    this.start = -1;
    const length = run.to - run.from + 1;
    // One step is a cut (or nothing); a longer run is a move or an animation.
    return this.before >= HOLD && length >= 2 && length <= this.longest ? run : undefined;
  }
}

/** Runs of change between still holds as a detector: each sample judged as it arrives. */
export class StillChanges implements Detector {
  readonly lag = 0;
  private readonly runs: StillChange;

  constructor(
    private readonly m: Measurements,
    private readonly found: Candidates,
    fps: number,
  ) {
    this.runs = new StillChange(fps);
  }

  push(): void {
    const i = this.m.count - 1;
    const run = this.runs.push(i, this.m.visual.motion.get(i));
    if (!run || this.found.hasCutIn(run.from - 1, run.to + 1)) return;
    const a = this.m.recent.grid(run.from - 1);
    const b = this.m.recent.grid(run.to);
    if (!a || !b || dist(a, b) < STILL_CUT_MIN) return;
    if (this.meanChange(run.from, run.to) < ABOVE_HOLDS * this.holdsChange(run)) return;
    // A dissolve or a wipe takes each part of the picture once from the old picture to the new,
    // a fade through black or white there and back; a camera's still shot that moves for a
    // moment (a head turning and stopping) goes back and forth.
    if (!this.dips(run) && this.monotone(run, a, b) < MONOTONE) return;
    this.found.stillChanges.push(Math.round((run.from - 1 + run.to) / 2));
  }

  finish(): void {}

  private meanChange(from: number, to: number): number {
    let sum = 0;
    for (let i = from; i <= to; i++) sum += this.m.visual.motion.get(i);
    return sum / (to - from + 1);
  }

  /** The mean change of the still holds either side of the run (HOLD samples each). */
  private holdsChange(run: StillRun): number {
    const before = this.meanChange(Math.max(1, run.from - HOLD), run.from - 1);
    return (before + this.meanChange(run.to + 1, run.to + HOLD)) / 2;
  }

  /** Whether the brightness inside the run dips halfway or more towards black or white. */
  private dips(run: StillRun): boolean {
    const y = (i: number): number => this.m.visual.luma.get(i);
    const ends = [y(run.from - 1), y(run.to)];
    for (let i = run.from; i < run.to; i++) {
      if (y(i) < 0.5 * Math.min(...ends) || 1 - y(i) < 0.5 * (1 - Math.max(...ends))) return true;
    }
    return false;
  }

  /**
   * How directly the picture went from a to b over the run: the blocks' net change against the
   * sum of their steps (1: each block moved once, one way, as in a dissolve or a wipe).
   */
  private monotone(run: StillRun, a: Float32Array, b: Float32Array): number {
    const net = blockSteps(a, b);
    let path = 0;
    for (let i = run.from; i <= run.to; i++) {
      const step = this.m.recent.step(i);
      if (!step) return 0;
      for (const v of step) path += v;
    }
    let direct = 0;
    for (const v of net) direct += v;
    return direct / Math.max(path, 1e-9);
  }
}
