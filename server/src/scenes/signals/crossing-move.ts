// Whether a camera move explains the pictures around a colour crossing (colour-mixture.ts): a pan
// or a zoom drifts the colours too, but its pictures are the ones before, moved. Asked by
// detectors/colour-mixture.ts before a crossing becomes a transition.
import { explainedByMotion, movedDist } from './camera-move.ts';
import { FLASH } from '../thresholds.ts';
import { dist } from './grid.ts';
import { GRID_H, GRID_W, type RecentSamples } from '../samples.ts';
import type { VisualSamples } from '../../media/visual.ts';

/** A colour-mixture transition is a camera move when a move leaves less than this of a step. */
const MIX_MOVED = 0.35;
/** A flash lifts the brightness (0..1) of its samples at least this far above those around. */
const FLASH_LIFT = 0.06;

export class CrossingMoveCheck {
  /** The last crossing's answer: neighbouring windows see the same crossing again. */
  private last: { at: number; moved: boolean } | undefined;

  /** `window`: the gradual evidence's window (samples) whose ends are compared as well. */
  constructor(
    private readonly visual: VisualSamples,
    private readonly samples: RecentSamples,
    private readonly window: number,
  ) {}

  /** Whether a camera move explains the pictures around a colour crossing at sample `at`. */
  moved(at: number): boolean {
    if (this.last?.at === at) return this.last.moved;
    const moved = this.look(at);
    this.last = { at, moved };
    return moved;
  }

  private look(at: number): boolean {
    // The pictures a sample or two either side nearly all of it (a wipe or a dissolve brings
    // new picture at every step), or those 0.35 s either side half of it.
    const moved = (i: number, j: number): boolean => {
      const a = this.samples.grid(i);
      const b = this.samples.grid(j);
      if (!a || !b) return true;
      const d = dist(a, b);
      return movedDist(a, b, GRID_W, GRID_H, MIX_MOVED * d) < MIX_MOVED * d;
    };
    if (moved(at - 1, at + 1) || moved(at - 2, at + 2)) return true;
    const a = this.samples.grid(at - this.window);
    const b = this.samples.grid(at + this.window);
    if (!a || !b || explainedByMotion(a, b, GRID_W, GRID_H, dist(a, b))) return true;
    // One step alone is no camera move: a wipe into a picture of horizontal bands (or vertical
    // ones) is, step by step, that picture pushed in (its first strip, at the edge, is shifted
    // out of view), but not over two steps. Only where a flash spoils the two-step pictures do
    // single steps decide.
    if (!this.flashNear(at)) return false;
    for (let i = at - 3; i <= at + 1; i++) if (moved(i, i + 1)) return true;
    return false;
  }

  /**
   * Whether a flash lies near sample `at`: up to FLASH samples brighter by FLASH_LIFT than the
   * pictures just before and after them.
   */
  private flashNear(at: number): boolean {
    const y = (i: number): number => this.visual.luma.get(i);
    for (let i = at - 3; i <= at + 3; i++) {
      let low = Infinity;
      for (let len = 1; len <= FLASH; len++) {
        low = Math.min(low, y(i + len - 1));
        if (low - Math.max(y(i - 1), y(i + len)) > FLASH_LIFT) return true;
      }
    }
    return false;
  }
}
