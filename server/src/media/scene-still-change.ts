// Gradual changes between still pictures: a dissolve or a wipe from one slide or title card to
// another of about the same brightness and colours. Its steps are too small for the blend and
// edge evidence of scene-gradual.ts (whose ends must be far apart), but the pictures either side
// do not change at all: a short run of changing samples between two still holds is a transition,
// its middle the boundary (scene-detector.ts checks that the pictures either side differ).

/** A sample's change (mean RGB, 0..1) under this is no change: a still picture, encoded. */
const STILL = 0.002;
/** Still samples wanted on each side of a run. */
const HOLD = 5;
/** The longest run, seconds (the longest dissolves the detector looks for). */
const LONGEST_SECONDS = 2;

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
