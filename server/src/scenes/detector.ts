// The scene detector's parts (as PySceneDetect's scenedetect/scene_detector.py): each detector
// reads the measurements (measurements.ts) sample by sample, a fixed number of samples behind the
// newest, and adds its candidates to the shared list (Candidates); combine.ts turns them into
// boundaries. Detectors run in a fixed order: a later one may read an earlier one's candidates
// (gradual evidence is no transition across a cut). The types they share live here, below them
// all.

/**
 * Samples near each other with gradual evidence (detectors/gradual-evidence.ts, or the colours:
 * detectors/colour-mixture.ts): one transition.
 */
export interface Transition {
  from: number;
  to: number;
  best: number;
  bestScore: number;
  /** Window half-widths whose blend or variance evidence fired inside the transition. */
  windows: Set<number>;
  /** An edge moved across the picture (a wipe): enough evidence alone. */
  wipe: boolean;
  /** The first and last samples whose wipe evidence fired, and the strongest of it. */
  wipeFrom?: number;
  wipeTo?: number;
  wipeScore?: number;
  /** Only faint blends (GradualAt.faint) were seen. */
  faint?: boolean;
  /** Found by the colours alone (colour-mixture.ts): later evidence near it is the same one. */
  colours?: boolean;
  /** Where the colours crossed from one shot to the other, when they saw it (its middle). */
  mixAt?: number;
}

/** A blend between moving shots (GradualAt.moving): its centre and window half-width. */
export interface MovingBlend {
  c: number;
  w: number;
}

export interface Detector {
  /** How many samples behind the newest it judges: what it answers before that is final. */
  readonly lag: number;
  /**
   * The next frame has been measured (sample count - 1; the detectors read only the
   * measurements): judge what can be judged now.
   */
  push(): void;
  /** No frame comes after: judge the samples left. */
  finish(): void;
}

/** Every detector's candidates so far, as sample numbers. */
export class Candidates {
  /** Hard cuts, in time order (detectors/hard-cut.ts). */
  readonly cuts: number[] = [];
  /**
   * Each hard cut's change beyond the light (signals/grid.ts patternChange): the order in which
   * cuts claim their places (placement.ts), so that a flash's jump does not push out the cut
   * beside it.
   */
  readonly cutStrength = new Map<number, number>();
  /** Gradual transitions closed so far (detectors/gradual.ts, detectors/colour-mixture.ts). */
  readonly gradual: Transition[] = [];
  /** The gradual transition still growing, if any. */
  open: Transition | undefined;
  /** Middles of gradual changes between still pictures (detectors/still-change.ts). */
  readonly stillChanges: number[] = [];
  /** Blends between moving shots, in time order (detectors/gradual.ts; judged in combine.ts). */
  readonly movingBlends: MovingBlend[] = [];

  /** Whether a cut lies in from+1..to. */
  hasCutIn(from: number, to: number): boolean {
    // Cuts are found in time order and asked about near the end: look back from the last one.
    for (let k = this.cuts.length - 1; k >= 0 && this.cuts[k]! > from; k--) {
      if (this.cuts[k]! <= to) return true;
    }
    return false;
  }
}
