// Gradual transitions in the scene detector's samples (gradual.ts), sample by sample:
// - dissolve between still shots: over a window a..b the middle sample is close to the average
//   of the ends (twin frames of a cross-fade), no camera move explains it, and the picture is
//   still on at least one side of the window;
// - dissolve with motion: the mean colour moves on a line and the variance sags along the
//   cross-fade parabola (signals/grid.ts), which motion inside the shots does not fake;
// - wipe: an edge crossing the picture in order (wipeEvidence) that no camera move explains;
// - fade through black or white: fade-evidence.ts.
// And where a transition made of such samples goes: the bottom of its fade, else the sample with
// the strongest evidence.
import { explainedByMotion, movedDist } from '../signals/camera-move.ts';
import { blendResidual, dist, varianceDip } from '../signals/grid.ts';
import { wipeEvidence } from '../signals/wipe.ts';
import type { Layouts } from '../layouts.ts';
import type { SpanChanges } from '../span-changes.ts';
import { FadeEvidence } from './fade-evidence.ts';
import { DARK, FLAT_SD, MOVING } from '../thresholds.ts';
import type { MovingBlend, Transition } from '../detector.ts';
import { GRID_H, GRID_W, type RecentSamples } from '../samples.ts';
import type { VisualSamples } from '../../media/visual.ts';

const GRAD_MIN = 0.09;
/** Ends this far apart (but under GRAD_MIN) make a faint blend: a dissolve between framings of
 * one room, kept only where the picture hardly drifts beside it. */
const GRAD_FAINT = 0.07;
/**
 * Weakest wipe evidence kept (the ends' difference times the share of the picture the edge
 * crossed): an edge over the fewest blocks between the closest ends (0.3 x 0.09) is a zoom over
 * moving shapes as often as a wipe; the benches' wipes are 0.13 and more.
 */
const WIPE_MIN = 0.05;
/** Weakest variance-dip evidence kept (varianceDip, 0..1): a turn over gradients sags a little. */
const DIP_MIN = 0.3;
const LINEAR_MAX = 0.2;
/**
 * Blend evidence that is weak (at the widest windows only, at one window size, or between ends
 * GRAD_FAINT to GRAD_MIN apart) is a shot's drift when the layout drifts at least this share as
 * much over the same span beside it, and a transition when it drifts less (a pan goes on: the
 * benches' ratios are 1.1 and more for pans and zooms; 0.1 to 0.45 for the dissolves between
 * webcam shots).
 */
const DRIFT_SHARE = 0.5;
/**
 * A blend between moving shots: the middle within this share of the ends' difference from the
 * line between them (the shots' own movement adds to what LINEAR_MAX allows still ones)...
 */
const MOVING_LINEAR_MAX = 0.3;
/**
 * ...where the ends differ at least this many times as much as the picture changes over as long
 * just before and just after the window (span-changes.ts): the rolling baseline that tells a
 * dissolve between two moving shots from a head turn or a pan, which change as much beside.
 */
const BASELINE_RATIO = 2.5;
/**
 * A moving blend whose ends a camera move explains (a close view and a wide one of the same room
 * fit a zoom) is still one when its middle is this many times further from either end moved than
 * from their blend.
 */
const BLEND_OVER_MOVE = 3;
/**
 * A transition whose wipe evidence is at least this share of its strongest evidence goes where
 * the wipe evidence fired (place): a weaker edge at a dissolve's start does not place it.
 */
export const EDGE_LEADS = 0.5;
/** A transition whose evidence lasts this long (seconds) is placed at its middle. */
const LONG_SECONDS = 1;
/** Window half-widths, seconds: dissolves and fades up to about 2.4 s long. */
const WINDOW_SECONDS = [0.2, 0.35, 0.5, 0.8, 1.2];

/** The evidence of a gradual transition centred on one sample. */
export interface GradualAt {
  /** Strongest blend, variance-dip or wipe evidence (0: none). */
  score: number;
  /** Window half-widths whose blend or variance evidence fired. */
  fired: Set<number>;
  /** The wipe evidence's strength (0: none, no edge crossed). */
  wipeScore: number;
  /** Black or white, or the bottom of a dip towards them: a fade. */
  flat: boolean;
  /** A still blend between ends GRAD_FAINT to GRAD_MIN apart (closer than the others ask). */
  faint: boolean;
  /**
   * Window half-widths where the middle lies near the line between ends at least GRAD_FAINT
   * apart while the shots move on either side (movingBlend): a transition only when the ends
   * stand far above the shots' own change beside it (judged at placement, rollingBlend).
   */
  moving: number[];
}

export class GradualEvidence {
  /** Window half-widths in samples, from 0.2 s to 1.2 s. */
  readonly windows: number[];
  /** The widest half-width: a centre is judged this many samples late. */
  readonly span: number;
  /** How far (samples) beyond a transition's evidence its placement reads (the drift beside). */
  readonly reach: number;
  /** Fades' bottoms and flashes (fade-evidence.ts). */
  readonly fades: FadeEvidence;
  /** LONG_SECONDS in samples. */
  private readonly long: number;

  /** Window half-widths in samples at `fps` samples a second. */
  static windowsAt(fps: number): number[] {
    return WINDOW_SECONDS.map((s) => Math.max(1, Math.round(s * fps)));
  }

  /** The widest half-width at `fps` samples a second. */
  static spanAt(fps: number): number {
    return Math.max(...GradualEvidence.windowsAt(fps));
  }

  constructor(
    private readonly visual: VisualSamples,
    private readonly samples: RecentSamples,
    private readonly layouts: Layouts,
    private readonly spans: SpanChanges,
    fps: number,
    private readonly hasCutIn: (from: number, to: number) => boolean,
  ) {
    this.windows = GradualEvidence.windowsAt(fps);
    this.span = GradualEvidence.spanAt(fps);
    this.reach = 3 * this.span;
    this.fades = new FadeEvidence(visual, samples, this.span, spans);
    this.long = Math.round(LONG_SECONDS * fps);
  }

  /** The evidence at sample c, asked `span` samples (and a lookahead) after it arrived. */
  at(c: number): GradualAt {
    const mid = this.samples.grid(c);
    let score = 0;
    const fired = new Set<number>();
    let faint = false;
    const moving: number[] = [];
    for (const w of this.windows) {
      const a = this.samples.grid(c - w);
      const b = this.samples.grid(c + w);
      if (!mid || !a || !b || c - w < 0) continue;
      const dab = dist(a, b);
      if (dab < GRAD_FAINT || this.hasCutIn(c - w, c + w)) continue;
      if (dab < GRAD_MIN) {
        if (this.linearScore(c, w, dab) > 0) faint = true;
        else if (this.movingBlend(c, w, dab)) moving.push(w);
        continue;
      }
      const s = this.linearScore(c, w, dab) || this.dipScore(c, w, dab);
      if (s > 0) fired.add(w);
      else if (this.movingBlend(c, w, dab)) moving.push(w);
      score = Math.max(score, s);
    }
    const wipe = this.wipeScore(c);
    score = Math.max(score, wipe);
    const y = (i: number): number => this.visual.luma.get(i);
    // Black (or white) with a picture on at least one side: a fade's bottom or a hold in it, not
    // a dark shot.
    const around = [y(c - this.span), y(c + this.span)];
    const flatNow = this.contrast(c) < FLAT_SD / 3;
    const black = y(c) < DARK && flatNow && Math.max(...around) > 2 * DARK;
    const white = y(c) > 1 - DARK && flatNow && Math.min(...around) < 1 - 2 * DARK;
    const flat = black || white || this.fades.dips(c);
    return { score, fired, wipeScore: wipe, flat, faint, moving };
  }

  /** A wipe centred on sample c (wipeEvidence over the widest window), scaled like the others. */
  private wipeScore(c: number): number {
    const w = this.span;
    const a = this.samples.grid(c - w);
    const b = this.samples.grid(c + w);
    if (!a || !b || c - w < 1 || this.hasCutIn(c - w, c + w)) return 0;
    const dab = dist(a, b);
    if (dab < GRAD_MIN) return 0;
    const steps: Float32Array[] = [];
    for (let i = c - w + 1; i <= c + w; i++) {
      const step = this.samples.step(i);
      if (!step) return 0;
      steps.push(step);
    }
    const evidence = wipeEvidence(steps, GRID_W, GRID_H);
    if (dab * evidence < WIPE_MIN) return 0;
    // Between still shots an edge crossing in order is a wipe. In a moving shot it may be a pan
    // over one large edge: then a shift must not explain the steps (a wipe brings new picture).
    const m = (i: number): number => this.visual.motion.get(i);
    let inside = 0;
    for (let i = c - w + 1; i <= c + w; i++) inside += m(i);
    inside /= 2 * w;
    const outside = Math.max(m(c - w), m(c - w - 1), m(c + w + 1), m(c + w + 2));
    if (outside >= 0.5 * inside) {
      let moved = 0;
      let plain = 0;
      for (let i = c - 1; i <= c + 1; i++) {
        moved += this.samples.movedAt(i);
        plain += m(i);
      }
      if (moved < 0.5 * plain) return 0;
      // A slow pan over smooth gradients moves less than a block a sample, which no whole-block
      // shift explains: the pictures 0.4 s apart are then one picture, moved.
      const a4 = this.samples.grid(c - this.windows[1]!)!;
      const b4 = this.samples.grid(c + this.windows[1]!)!;
      if (explainedByMotion(a4, b4, GRID_W, GRID_H, dist(a4, b4))) return 0;
    }
    return dab * evidence;
  }

  /**
   * Whether the steps around sample c are mostly a camera move (a shift or zoom leaves less than
   * half of them): a pan over smooth gradients looks like a blend or an edge crossing, but each of
   * its steps is the picture before, moved.
   */
  private shiftedAtCentre(c: number): boolean {
    let shifted = 0;
    for (let i = c - 1; i <= c + 1; i++) {
      if (this.samples.movedBelow(i, 0.5 * this.visual.motion.get(i))) shifted++;
    }
    return shifted >= 2;
  }

  /** Standard deviation of the grey level of sample i (0 once it left the ring). */
  private contrast(i: number): number {
    return this.fades.contrast(i);
  }

  /** Still pictures cross-fading: the middle lies on the line between the ends (block means). */
  private linearScore(c: number, w: number, dab: number): number {
    const a = this.samples.grid(c - w)!;
    const b = this.samples.grid(c + w)!;
    const r = blendResidual(a, b, this.samples.grid(c)!, 0.5);
    if (r > LINEAR_MAX * dab) return 0;
    const q1 = this.samples.grid(c - (w >> 1));
    const q3 = this.samples.grid(c + (w >> 1));
    if (w >= 4 && q1 && q3) {
      const t = (w >> 1) / (2 * w);
      const r1 = blendResidual(a, b, q1, 0.5 - t);
      const r3 = blendResidual(a, b, q3, 0.5 + t);
      if (Math.max(r1, r3) > LINEAR_MAX * dab) return 0;
    }
    // A pan across smooth gradients is locally a blend too; a cross-fade between still pictures
    // is not surrounded by the same steady change on both sides.
    const m = (i: number): number => this.visual.motion.get(i);
    // The median step inside: a flash's two steps do not make a steady move look like a blend.
    const steps: number[] = [];
    for (let i = c - w + 1; i <= c + w; i++) steps.push(m(i));
    steps.sort((x, y) => x - y);
    const inside = steps[w]!;
    const before = (m(c - w) + m(c - w - 1)) / 2;
    const after = (m(c + w + 1) + m(c + w + 2)) / 2;
    if (Math.min(before, after) > 0.5 * inside) return 0;
    if (explainedByMotion(a, b, GRID_W, GRID_H, dab)) return 0;
    if (this.shiftedAtCentre(c)) return 0;
    return dab * (1 - r / dab);
  }

  /**
   * Moving shots cross-fading: the middle and the quarter points near the line between the ends
   * (MOVING_LINEAR_MAX), and no camera move explains the change. Whether the shots' own change
   * beside the window is small enough is asked at placement (rollingBlend): the spans after it
   * have not arrived yet.
   */
  private movingBlend(c: number, w: number, dab: number): boolean {
    const a = this.samples.grid(c - w)!;
    const b = this.samples.grid(c + w)!;
    const mid = this.samples.grid(c)!;
    const r = blendResidual(a, b, mid, 0.5);
    if (r > MOVING_LINEAR_MAX * dab) return false;
    if (explainedByMotion(a, b, GRID_W, GRID_H, dab)) {
      // A close view and a wide one of the same room fit a zoom between the ends; a zoom's middle
      // is the picture moved halfway, a dissolve's is both pictures at once.
      const moved = Math.min(
        movedDist(a, mid, GRID_W, GRID_H, BLEND_OVER_MOVE * r),
        movedDist(mid, b, GRID_W, GRID_H, BLEND_OVER_MOVE * r),
      );
      if (moved < BLEND_OVER_MOVE * r) return false;
    }
    return !this.shiftedAtCentre(c);
  }

  /**
   * The centre of the blend between moving shots (of one run of them) whose ends stand furthest above
   * the picture's change over as long just before and just after (at least BASELINE_RATIO
   * times), if any: the rolling baseline of span-changes.ts. Spans cut short by the video's
   * start or end do not count.
   */
  rollingBlend(blends: readonly MovingBlend[]): number | undefined {
    let best: { c: number; ratio: number } | undefined;
    for (const { c, w } of blends) {
      const across = this.spans.at(c + w, w);
      const beside = Math.max(this.spans.at(c - w, w), this.spans.at(c + 3 * w, w));
      if (!(across >= BASELINE_RATIO * beside)) continue; // NaN: a span beyond the video
      const ratio = across / Math.max(beside, 1e-6);
      if (!best || ratio > best.ratio) best = { c, ratio };
    }
    return best?.c;
  }

  /** Moving pictures cross-fading: the variance dips along the dissolve parabola (see varianceDip). */
  private dipScore(c: number, w: number, dab: number): number {
    if (w < 2) return 0;
    const h = w >> 1;
    const [a, q1, mid, q3, b] = [c - w, c - h, c, c + h, c + w].map((i) => this.samples.stat(i));
    if (!a || !q1 || !mid || !q3 || !b) return 0;
    const dip = varianceDip({ a, q1, c: mid, q3, b });
    if (dip < DIP_MIN) return 0;
    if (
      explainedByMotion(this.samples.grid(c - w)!, this.samples.grid(c + w)!, GRID_W, GRID_H, dab)
    )
      return 0;
    return dab * dip;
  }

  /**
   * The darkest (or brightest) sample when the transition fades through black (or white),
   * otherwise its most linear centre or the middle of its wipe (the middle of its evidence when
   * that lasted a second or more); none when only one window size saw a blend (a real dissolve
   * shows at several scales).
   */
  place(t: Transition): { i: number; sure: boolean } | undefined {
    const fade = this.fades.fadeAt(t);
    if (fade !== undefined) return { i: fade, sure: true };
    // A wipe's edge evidence fires on the windows centred on the wipe's middle (signals/wipe.ts),
    // wherever the other evidence of its transition lies: the ends of a long wipe into or out of
    // a moving shot look like blends, and a dissolve between pans may show an edge. Where the
    // edge is at least EDGE_LEADS of the strongest evidence, the transition goes at the middle of
    // the samples that saw it.
    const { wipeFrom, wipeTo, wipeScore = 0 } = t;
    if (wipeFrom !== undefined && wipeTo !== undefined && wipeScore >= EDGE_LEADS * t.bestScore) {
      return { i: (wipeFrom + wipeTo) >> 1, sure: true };
    }
    // Evidence peaks anywhere in a long transition (a dissolve's blend at one scale, the colours'
    // crossings): one seen for a second or more goes at its middle.
    const at = t.to - t.from >= this.long ? (t.from + t.to) >> 1 : t.best;
    if (t.wipe) return { i: at, sure: true };
    // Two window sizes only, between shots that move on both sides and without the colours:
    // a pan's uneven steps (a reference-only decode) look like a short blend.
    if (t.windows.size === 2 && t.mixAt === undefined && this.movingAround(t)) return undefined;
    if (t.windows.size >= 2 && (t.mixAt !== undefined || !this.wideOnlyInMotion(t))) {
      return { i: at, sure: false };
    }
    if (t.mixAt !== undefined) return { i: t.mixAt, sure: false };
    // Blend evidence at one window size, or faint, where the picture hardly drifts beside it: a
    // slow dissolve between two framings of one room, whose ends differ little.
    const weak = t.windows.size === 1 || (t.windows.size === 0 && t.faint === true);
    if (weak && this.driftBeside(t) < DRIFT_SHARE) return { i: at, sure: false };
    return undefined;
  }

  /**
   * Blend evidence only at the widest windows (0.8 s and more) beside a shot that drifts as much:
   * a slow pan or zoom over gradients drifts like a long blend, and goes on drifting past it; a
   * real dissolve between moving shots shows at a shorter window too (or in the colours). The
   * shot's own drift is its rolling baseline (layouts.ts): the layout's change over the
   * widest window's span just before and just after the evidence, against its change across it.
   * A webcam's noise and small head movements change the large blocks little, so a slow dissolve
   * between two framings of one room (0.01 a sample, as much as the noise) is still one.
   */
  private wideOnlyInMotion(t: Transition): boolean {
    if ([...t.windows].some((w) => w <= this.windows[2]!)) return false;
    return this.driftBeside(t) >= DRIFT_SHARE;
  }

  /**
   * The layout's drift over the widest window's span just before and just after the evidence,
   * as a share of its change across the evidence and those windows (layouts.ts).
   */
  private driftBeside(t: Transition): number {
    const w = this.span;
    const across = this.layouts.drift(t.from - w, t.to + w);
    // Only whole spans: one cut short by the video's start or end would look quiet.
    if (t.from - 3 * w < 0 || t.to + 3 * w >= this.layouts.count) return Infinity;
    const beside = Math.max(
      this.layouts.drift(t.from - 3 * w, t.from - w),
      this.layouts.drift(t.to + w, t.to + 3 * w),
    );
    return beside / Math.max(across, 1e-6);
  }

  /** Whether the shots move on both sides, beyond the widest window around the evidence. */
  private movingAround(t: Transition): boolean {
    const m = (i: number): number => this.visual.motion.get(i);
    const before = m(t.from - this.span - 1) + m(t.from - this.span - 2);
    const after = m(t.to + this.span + 1) + m(t.to + this.span + 2);
    return Math.min(before, after) > 2 * MOVING;
  }
}
