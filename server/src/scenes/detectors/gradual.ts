// Gradual transitions (fades, dissolves, wipes) as a detector: the evidence of each centre
// (gradual-evidence.ts), judged a window and a lookahead behind the newest sample; centres with
// evidence close to each other grow one transition, which closes when no evidence came for a
// while and is kept unless it was a flash, a fade in or out of the video, a dark shot, or a
// transition the colours placed already.
import type { Candidates, Detector } from '../detector.ts';
import type { Measurements } from '../measurements.ts';
import { GradualEvidence } from './gradual-evidence.ts';

/** Centres with evidence at most this many samples apart grow one transition. */
const MERGE_GAP = 4;
/** Samples looked at after a transition window (is the picture still there?). */
export const LOOKAHEAD = 2;

export class GradualTransitions implements Detector {
  readonly evidence: GradualEvidence;
  readonly lag: number;

  /** `colourHalf`: the colours' widest half-window (a transition they placed is not added). */
  constructor(
    private readonly m: Measurements,
    private readonly found: Candidates,
    private readonly fps: number,
    private readonly colourHalf: number,
  ) {
    this.evidence = new GradualEvidence(m.visual, m.recent, m.layouts, m.spans, fps, (from, to) =>
      found.hasCutIn(from, to),
    );
    this.lag = this.evidence.span + LOOKAHEAD;
  }

  push(): void {
    const n = this.m.count;
    if (n <= 2 * this.evidence.span + LOOKAHEAD) return;
    const c = n - 1 - this.lag;
    this.judge(c);
    // Too far behind to grow: closed now, as the next transition or finish() would close it.
    const open = this.found.open;
    if (open && c - open.to > MERGE_GAP) this.close();
  }

  finish(): void {
    this.close();
  }

  private judge(c: number): void {
    const { score, fired, wipeScore, flat, faint, moving } = this.evidence.at(c);
    const wipe = wipeScore > 0;
    // Blends between moving shots are candidates of their own (combine.ts): they neither grow
    // nor place the other evidence's transitions.
    for (const w of moving) this.found.movingBlends.push({ c, w });
    if (score === 0 && !flat && !faint) return;
    const open = this.found.open;
    if (open && c - open.to <= MERGE_GAP) {
      open.to = c;
      for (const w of fired) open.windows.add(w);
      if (wipe) {
        open.wipe = true;
        open.wipeFrom ??= c;
        open.wipeTo = c;
        open.wipeScore = Math.max(open.wipeScore ?? 0, wipeScore);
      }
      if (score > open.bestScore) {
        open.best = c;
        open.bestScore = score;
      }
      if (score > 0 || flat) open.faint = false;
    } else {
      this.close();
      this.found.open = { from: c, to: c, best: c, bestScore: score, windows: fired, wipe };
      if (wipe) Object.assign(this.found.open, { wipeFrom: c, wipeTo: c, wipeScore });
      if (score === 0 && !flat) this.found.open.faint = true;
    }
  }

  private close(): void {
    const t = this.found.open;
    this.found.open = undefined;
    if (!t) return;
    const n = this.m.count;
    // A dark stretch at the very start or end is a fade in/out of the video, not a transition.
    if (t.from <= 1 || t.to >= n - 2) return;
    if (this.found.hasCutIn(t.from - 1, t.to + 1)) return;
    if (this.evidence.fades.isBlip(t)) return;
    // A long dark stretch without any blend around it is a dark shot, not a fade.
    if (t.bestScore === 0 && t.to - t.from > 3 * this.fps) return;
    // The colours placed this transition already, from its whole course.
    const h = this.colourHalf;
    const last = this.found.gradual.at(-1);
    if (last?.colours && last.to >= t.from - h && last.from <= t.to + h) return;
    this.found.gradual.push(t);
  }
}
