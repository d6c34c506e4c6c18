// Gradual transitions the colour histograms show (signals/colour-mixture.ts) where no cut was
// found, as a detector: a wipe or a dissolve between moving shots, or the confirmation (and the
// place) of one that weaker blend evidence found.
import type { Candidates, Detector, Transition } from '../detector.ts';
import type { Measurements } from '../measurements.ts';
import { MixtureEvidence } from '../signals/colour-mixture.ts';
import { CrossingMoveCheck } from '../signals/crossing-move.ts';

export class ColourMixture implements Detector {
  readonly evidence: MixtureEvidence;
  readonly lag: number;
  private readonly crossingMove: CrossingMoveCheck;

  /** `window`: the blend window whose camera-move check a crossing gets (CrossingMoveCheck). */
  constructor(
    private readonly m: Measurements,
    private readonly found: Candidates,
    fps: number,
    window: number,
  ) {
    this.evidence = new MixtureEvidence(fps, (i) => m.histograms.get(i));
    this.lag = this.evidence.lag;
    this.crossingMove = new CrossingMoveCheck(m.visual, m.recent, window);
  }

  push(): void {
    const n = this.m.count;
    if (n > 2 * this.lag) this.judge(n - 1 - this.lag);
  }

  finish(): void {}

  private judge(c: number): void {
    const at = this.evidence.at(c);
    if (at === undefined) return;
    const h = this.evidence.half;
    if (this.found.hasCutIn(c - h, c + h)) return;
    if (this.crossingMove.moved(at)) return;
    // Found already by its blend or edge evidence: the colours confirm it, and place it when
    // blend evidence at one window size alone would have dropped it.
    const near = (t: Transition): boolean => t.to >= c - h && t.from <= c + h;
    // One the colours found alone grows with each later crossing near it and is placed at
    // their middle, as blend evidence is: the colours of a long wipe or dissolve cross at the
    // middle of several windows along its course, and the first lay 0.55-0.6 s before the middle
    // of ones of 2.4 s (a wipe into a zoom, a dissolve from a still picture into a pan). Over
    // the widest half-window at most: crossings further apart are two transitions (two wipes
    // 1.4 s apart were placed as one between them).
    const confirm = (t: Transition): void => {
      if (t.colours && Math.max(t.to, at) - Math.min(t.from, at) <= h) {
        t.from = Math.min(t.from, at);
        t.to = Math.max(t.to, at);
        t.best = (t.from + t.to) >> 1;
        return;
      }
      t.mixAt ??= at;
    };
    const { open, gradual } = this.found;
    if (open && near(open)) return confirm(open);
    for (let k = gradual.length - 1; k >= 0 && gradual[k]!.to >= c - 2 * h; k--) {
      if (near(gradual[k]!)) return confirm(gradual[k]!);
    }
    gradual.push({
      from: at,
      to: at,
      best: at,
      bestScore: 0,
      windows: new Set(),
      wipe: true,
      colours: true,
    });
  }
}
