// Fades and flashes in the scene detector's samples: a dip of brightness and contrast to near
// black (or white) between two lit pictures is a fade's bottom, placed at its middle; a short
// one whose picture comes back (up to a camera move), judged outside the dip's ramps, a flash.
import { movedDist } from '../signals/camera-move.ts';
import { dist, fadeBottom } from '../signals/grid.ts';
import { GRID_H, GRID_W, type RecentSamples } from '../samples.ts';
import type { VisualSamples } from '../../media/visual.ts';
import type { Transition } from '../detector.ts';
import type { SpanChanges } from '../span-changes.ts';
import { DARK, FLASH, FLAT_SD, MOVING, STILL_CUT_MIN } from '../thresholds.ts';

/** A fade's bottom sample is at most this far from black (or white), even between samples. */
const FADE_DEEP = 0.15;
/** A sample this much further in brightness from a dip than the next one in is on its ramp. */
const RAMP_LIGHT = 0.03;

export class FadeEvidence {
  /** `span`: how far either side the lit pictures around a dip are looked for. */
  constructor(
    private readonly visual: VisualSamples,
    private readonly samples: RecentSamples,
    private readonly span: number,
    private readonly spans: SpanChanges,
  ) {}

  /** Standard deviation of the grey level of sample i (0 once it left the ring). */
  contrast(i: number): number {
    return Math.sqrt(this.samples.stat(i)?.variance ?? 0);
  }

  /**
   * Much darker (or much brighter) than the pictures `span` samples before and after: the bottom
   * of a fade through black (or white).
   */
  dips(c: number): boolean {
    const luma = this.visual.luma.get(c);
    const before = this.visual.luma.get(c - this.span);
    const after = this.visual.luma.get(c + this.span);
    const darker =
      Math.min(before, after) > 2 * DARK &&
      luma < Math.min(FADE_DEEP, 0.5 * Math.min(before, after));
    const room = (y: number): number => 1 - y;
    const brighter =
      Math.min(room(before), room(after)) > 2 * DARK &&
      room(luma) < Math.min(FADE_DEEP, 0.5 * Math.min(room(before), room(after)));
    if (!darker && !brighter) return false;
    // The bottom of a fade is nearly flat; a shot that darkens (cells dying) keeps its detail.
    if (this.contrast(c) > FLAT_SD) return false;
    // A fade lowers the contrast with the brightness; a move into a dark part of a shot does not.
    const sd = (i: number): number => this.contrast(i);
    return sd(c) < 0.5 * Math.min(sd(c - this.span), sd(c + this.span)) + 0.005;
  }

  /**
   * Whether a short dip to black or white without blend evidence is a flash (or a blink of the
   * light), or two flashes close together: the picture after it is the one before it, up to a
   * camera move, and it was away from it FLASH samples at the most at a time.
   */
  isBlip(t: Transition): boolean {
    // Blend evidence says nothing when the stretch dips to white or black: a window straddling
    // a flash sees a picture, a burst and the picture again.
    if (t.wipe || t.to - t.from > 2 * FLASH + 1) return false;
    if (t.windows.size > 0 && this.fadeAt(t) === undefined) return false;
    const a = this.samples.grid(t.from - 1);
    const b = this.samples.grid(t.to + 1);
    if (!a || !b) return false;
    const away: number[] = [];
    for (let i = t.from; i <= t.to; i++) {
      const g = this.samples.grid(i);
      if (!g) return false;
      away.push(dist(a, g));
    }
    const depth = Math.max(...away);
    let run = 0;
    for (const d of away) {
      run = d < 0.3 * depth ? 0 : run + 1;
      if (run > FLASH) return false;
    }
    // The pictures either side, before a fade's ramp dimmed them (a dim picture is close to any
    // other dim one): a flash has no ramp, a short fade between two shots has one.
    const [p, q] = this.outsideRamp(t);
    const before = this.samples.grid(p) ?? a;
    const after = this.samples.grid(q) ?? b;
    const back = dist(before, after);
    // Back means within 0.3 of the dip's depth, and within twice what the shot changed over as
    // long just before it (the rolling baseline of span-changes.ts; at least the still cut's
    // smallest jump): a still wide view and a close one of one room either side of a 0.5 s fade
    // are 0.1 apart, under 0.3 of its depth, where the shot before changed 0.004 over as long.
    // The synthetic flashes come back to 0.5-1.1 times their shot's change.
    const w = this.spans.windows.find((x) => 2 * x >= q - p) ?? this.span;
    const shot = this.spans.at(p, w);
    const usual = Number.isNaN(shot) ? Infinity : Math.max(STILL_CUT_MIN, 2 * shot);
    if (back < 0.3 * depth && back < usual) return true;
    // Up to a camera move only in a shot that was moving before it (as the cut check's flashes):
    // a still wide view and a close one of the same room fit a zoom.
    if (!this.movingBefore(p)) return false;
    return movedDist(before, after, GRID_W, GRID_H, 0.3 * depth) < 0.3 * depth;
  }

  /** Whether the shot changed MOVING a sample on average over the FLASH samples up to p. */
  private movingBefore(p: number): boolean {
    let sum = 0;
    let n = 0;
    for (let i = Math.max(1, p - FLASH + 1); i <= p; i++, n++) sum += this.visual.motion.get(i);
    return n > 0 && sum / n >= MOVING;
  }

  /** The samples just outside a dip's ramps: up to FLASH samples out while the light still moves. */
  private outsideRamp(t: Transition): [number, number] {
    const y = (i: number): number => this.visual.luma.get(i);
    let dip = y(t.from);
    for (let i = t.from; i <= t.to; i++) {
      if (Math.abs(y(i) - y(t.from - 1)) > Math.abs(dip - y(t.from - 1))) dip = y(i);
    }
    const further = (i: number, j: number): boolean =>
      Math.abs(y(i) - dip) > Math.abs(y(j) - dip) + RAMP_LIGHT;
    let p = t.from - 1;
    while (p > Math.max(0, t.from - 1 - FLASH) && further(p - 1, p)) p--;
    let q = t.to + 1;
    while (q < t.to + 1 + FLASH && q + 1 < this.visual.count && further(q + 1, q)) q++;
    return [p, q];
  }

  /** The bottom of the transition when it fades through black or white. */
  fadeAt(t: Transition): number | undefined {
    const y = (i: number): number => this.visual.luma.get(i);
    // Through black the depth is the darkness; through white, the room left below white. When
    // both fit (a fade through white into a dark shot), the one deeper below the pictures either
    // side.
    let fade: { i: number; below: number } | undefined;
    for (const depth of [y, (i: number) => 1 - y(i)]) {
      let deepest = t.from;
      for (let i = t.from; i <= t.to; i++) if (depth(i) < depth(deepest)) deepest = i;
      const bottom = depth(deepest);
      const around = Math.min(depth(t.from - 1), depth(t.to + 1));
      // A dip: deeper than the pictures on at least one side of it. A moving shot's black part
      // (a pan over rgbtestsrc's dark stretch) is black between pictures as dark.
      const dip = bottom < 0.5 * Math.max(depth(t.from - 1), depth(t.to + 1));
      if (dip && (bottom < DARK || bottom < 0.5 * around)) {
        const lit = Math.min(depth(t.from - this.span), depth(t.to + this.span));
        if (fade && fade.below >= lit - bottom) continue;
        fade = { i: fadeBottom(depth, t.from, t.to, Math.max(lit, around)), below: lit - bottom };
      }
    }
    return fade?.i;
  }
}
