// Scene boundaries from the stream of tiny RGB frames (see analysis-pass.ts), without ffmpeg's
// scdet (absent in 4.1). Signals:
// - hard cut: a jump between two samples far above the recent frame-to-frame change (in fast
//   camera moves: far above what a shift or zoom leaves unexplained), that is not a one-sample
//   flash nor a step of a fade (the same picture, darker, and still darkening a sample before or
//   after: a cut between a light and a dark title card changes in one sample);
// - dissolve between still shots: over a window a..b the middle sample is close to the average
//   of the ends (twin frames of a cross-fade), no camera move explains it, and the picture is
//   still on at least one side of the window;
// - dissolve with motion: the mean colour moves on a line and the variance sags along the
//   cross-fade parabola (scene-detect-signals.ts), which motion inside the shots does not fake;
// - fade through black: a dip of brightness and contrast to near black between two lit pictures.
// Gradual candidates close to each other form one transition, kept when it dips to black or when
// blend evidence came at two window sizes or more; its boundary is the bottom of the fade, else
// the sample with the strongest evidence.
import {
  affineResidual,
  blendResidual,
  dist,
  explainedByMotion,
  fadeBottom,
  movedDist,
  spread,
  varianceDip,
  wipeEvidence,
} from './scene-detect-signals.ts';
import { MixtureEvidence } from './scene-mixture.ts';
import { GRID_H, GRID_W, RecentSamples } from './scene-samples.ts';
import { VisualSamples } from './visual.ts';

export interface DetectorOptions {
  fps: number;
  width: number;
  height: number;
  minSceneMs: number;
  /** At most this many scenes: the strongest boundaries are kept (work per scene is bounded). */
  maxScenes?: number;
}

const CUT_MIN = 0.12;
const CUT_RATIO = 3;
/**
 * Between still pictures a smaller jump is a cut (a slide's hue and title change at the same
 * brightness): at least this, this many times the change before it, and the picture still after.
 */
const STILL_CUT_MIN = 0.025;
const STILL_CUT_RATIO = 6;
/** Mean change per sample above which a shot counts as moving (a flash may end on a moved view). */
const MOVING = 0.02;
/** Samples a flash may last (0.3 s): the picture returns within them. */
const FLASH = 3;
/** In moving pictures: a jump this far above the recent change is checked against camera moves. */
const CUT_MOVING_RATIO = 1.4;
const GRAD_MIN = 0.09;
/** Weakest variance-dip evidence kept (varianceDip, 0..1): a turn over gradients sags a little. */
const DIP_MIN = 0.3;
/** A neighbouring step of a fade changes the brightness by at least this share of the step. */
const FADE_STEP = 0.1;
const LINEAR_MAX = 0.2;
const DARK = 0.035;
/** A fade's bottom sample is at most this far from black (or white), even between samples. */
const FADE_DEEP = 0.15;
/** Grey-level deviation of a fade's bottom at most (a 0.1 s sample can miss the black one). */
const FLAT_SD = 0.06;
const MERGE_GAP = 4;
/** A colour-mixture transition is a camera move when a move leaves less than this of a step. */
const MIX_MOVED = 0.35;
/** Samples looked at after a transition window (is the picture still there?). */
const LOOKAHEAD = 2;

interface Transition {
  from: number;
  to: number;
  best: number;
  bestScore: number;
  /** Window half-widths whose blend or variance evidence fired inside the transition. */
  windows: Set<number>;
  /** An edge moved across the picture (a wipe): enough evidence alone. */
  wipe: boolean;
  /** Found by the colours alone (scene-mixture.ts): later evidence near it is the same one. */
  colours?: boolean;
  /** Where the colours crossed from one shot to the other, when they saw it (its middle). */
  mixAt?: number;
}

export class SceneDetector {
  readonly visual: VisualSamples;
  private readonly windows: number[];
  private readonly span: number;
  private readonly samples: RecentSamples;
  private previous: Uint8Array | undefined;
  private readonly cuts: number[] = [];
  private readonly gradual: Transition[] = [];
  private open: Transition | undefined;
  private readonly mixture: MixtureEvidence;

  constructor(private readonly o: DetectorOptions) {
    this.visual = new VisualSamples(o.fps);
    // Half-widths from 0.2 s to 1.2 s: dissolves and fades up to about 2.4 s long.
    this.windows = [0.2, 0.35, 0.5, 0.8, 1.2].map((s) => Math.max(1, Math.round(s * o.fps)));
    this.span = Math.max(...this.windows);
    this.samples = new RecentSamples(o.width, o.height, 2 * this.span + 2 + LOOKAHEAD);
    this.mixture = new MixtureEvidence(o.fps);
  }

  /** One rgb24 frame of width x height, the next sample in time. */
  push(frame: Uint8Array): void {
    this.visual.add(frame, this.previous);
    this.previous = new Uint8Array(frame); // a copy: Buffer#slice would share memory
    this.samples.push(frame);
    const n = this.visual.count;
    // Cuts are confirmed FLASH samples late (flash check); gradual centres `span` samples late.
    if (n >= FLASH + 2) this.checkCut(n - 1 - FLASH);
    if (n > 2 * this.span + LOOKAHEAD) {
      const c = n - 1 - this.span - LOOKAHEAD;
      this.checkGradual(c);
      // Too far behind to grow: closed now, as the next transition or finish() would close it.
      if (this.open && c - this.open.to > MERGE_GAP) this.closeOpen();
    }
    this.mixture.push(frame);
    if (n > 2 * this.mixture.lag) this.checkMixture(n - 1 - this.mixture.lag);
  }

  /**
   * A gradual transition the colour histograms show (scene-mixture.ts) where no cut was found: a
   * wipe or a dissolve between moving shots, or the confirmation of one found by weaker evidence.
   */
  private checkMixture(c: number): void {
    const at = this.mixture.at(c);
    if (at === undefined) return;
    const h = this.mixture.half;
    if (this.hasCutIn(c - h, c + h)) return;
    // A pan or a zoom drifts the colours too, but its pictures are the ones before, moved: some
    // step near the middle, or the pictures a sample or two either side, nearly all of it (a wipe
    // or a dissolve brings new picture at every step), and those 0.35 s either side half of it.
    for (const [i, j] of [
      [at - 3, at - 2],
      [at - 2, at - 1],
      [at - 1, at],
      [at, at + 1],
      [at + 1, at + 2],
      [at - 1, at + 1],
      [at - 2, at + 2],
    ] as const) {
      const a = this.samples.grid(i);
      const b = this.samples.grid(j);
      if (!a || !b) return;
      const d = dist(a, b);
      if (movedDist(a, b, GRID_W, GRID_H, MIX_MOVED * d) < MIX_MOVED * d) return;
    }
    const w = this.windows[1]!;
    const a = this.samples.grid(at - w);
    const b = this.samples.grid(at + w);
    if (!a || !b || explainedByMotion(a, b, GRID_W, GRID_H, dist(a, b))) return;
    // Found already by its blend or edge evidence: the colours confirm it, and place it when
    // blend evidence at one window size alone would have dropped it.
    const near = (t: Transition): boolean => t.to >= c - h && t.from <= c + h;
    const confirm = (t: Transition): void => {
      t.mixAt ??= at;
    };
    if (this.open && near(this.open)) return confirm(this.open);
    for (let k = this.gradual.length - 1; k >= 0 && this.gradual[k]!.to >= c - 2 * h; k--) {
      if (near(this.gradual[k]!)) return confirm(this.gradual[k]!);
    }
    this.gradual.push({
      from: at,
      to: at,
      best: at,
      bestScore: 0,
      windows: new Set(),
      wipe: true,
      colours: true,
    });
  }

  /** Scene start times after the first scene, in ms, at least minSceneMs apart. */
  finish(): number[] {
    const n = this.visual.count;
    for (let i = Math.max(1, n - FLASH); i < n; i++) this.checkCut(i);
    this.closeOpen();
    const placed = this.placeAll();
    const candidates = [...this.cuts, ...placed.keys()];
    return this.place(
      candidates,
      placed,
      this.visual.timeMs(n),
      (this.o.maxScenes ?? Infinity) - 1,
    );
  }

  /**
   * The boundaries no later sample can change, while the stream goes on: those finish() will
   * answer too, unless the scene cap then drops some. A candidate is settled once every sample
   * that could hold a rival within minSceneMs of it, or of a rival of a rival, has been judged.
   */
  settled(): number[] {
    const n = this.visual.count;
    // Cuts are judged up to sample n - 1 - FLASH, gradual centres up to n - 1 - span - LOOKAHEAD,
    // and an open transition may still grow or be placed anywhere from its start.
    let frontier = Math.min(n - 1 - FLASH, n - 1 - this.span - LOOKAHEAD, n - 1 - this.mixture.lag);
    if (this.open) frontier = Math.min(frontier, this.open.from);
    if (frontier <= 0) return [];
    const placed = this.placeAll();
    const times = [...this.cuts, ...placed.keys()]
      .map((i) => ({ i, ms: this.visual.timeMs(i) }))
      .sort((a, b) => b.ms - a.ms);
    let bound = this.visual.timeMs(frontier) - this.o.minSceneMs;
    const sure: number[] = [];
    for (const c of times) {
      if (c.ms > bound) bound = Math.min(bound, c.ms - this.o.minSceneMs);
      else sure.push(c.i);
    }
    return this.place(sure, placed, Infinity, Infinity);
  }

  /** Each kept transition's sample, and whether it is a fade or a wipe (surer than a blend). */
  private placeAll(): Map<number, boolean> {
    const placed = new Map<number, boolean>();
    for (const t of this.gradual) {
      const at = this.placeTransition(t);
      if (at) placed.set(at.i, placed.get(at.i) === true || at.sure);
    }
    return placed;
  }

  /**
   * Hard cuts are the surest boundaries: they claim their place first, strongest first, then the
   * fades and wipes, then the blends (each in time order); anything closer than the minimum scene
   * length to a kept boundary or an end is dropped, and at most `room` are kept.
   */
  private place(
    candidates: number[],
    transitions: Map<number, boolean>,
    endMs: number,
    room: number,
  ): number[] {
    const cuts = new Set(this.cuts);
    const strongestFirst = candidates
      .filter((i) => cuts.has(i))
      .sort((x, y) => this.visual.motion.get(y) - this.visual.motion.get(x));
    const rest = candidates.filter((i) => !cuts.has(i)).sort((x, y) => x - y);
    const sure = rest.filter((i) => transitions.get(i) === true);
    const ordered = [
      ...strongestFirst,
      ...sure,
      ...rest.filter((i) => transitions.get(i) !== true),
    ];
    // Sorted, so each candidate checks only its two neighbours (a long video has many).
    const kept: number[] = [];
    for (const i of ordered) {
      if (kept.length >= room) break;
      const ms = this.visual.timeMs(i);
      const at = sortedIndex(kept, ms);
      const fits =
        ms >= this.o.minSceneMs &&
        endMs - ms >= this.o.minSceneMs &&
        (at === 0 || ms - kept[at - 1]! >= this.o.minSceneMs) &&
        (at === kept.length || kept[at]! - ms >= this.o.minSceneMs);
      if (fits) kept.splice(at, 0, ms);
    }
    return kept;
  }

  private checkCut(i: number): void {
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
    // reference-only decode repeated a picture).
    const still =
      d >= STILL_CUT_MIN &&
      d >= STILL_CUT_RATIO * baseline &&
      Math.max(m(i + 1), m(i + 2)) < d / STILL_CUT_RATIO;
    if (d < CUT_MIN && !still) return;
    if (!still && d < CUT_MOVING_RATIO * Math.max(baseline, 0.01)) return;
    const before = this.samples.grid(i - 1);
    const now = this.samples.grid(i);
    if (!before || !now) return;
    if (this.isFlash(i, d, baseline)) return;
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
      return;
    // In fast camera moves the usual change is large too: what a move cannot explain decides.
    if (!still && d < CUT_RATIO * Math.max(baseline, 0.01)) {
      const left = this.samples.movedAt(i);
      const usual = Math.max(
        this.samples.movedAt(i - 1),
        this.samples.movedAt(i + 1 < this.visual.count ? i + 1 : i - 1),
      );
      if (left < CUT_MIN || left < CUT_RATIO * Math.max(usual, 0.01)) return;
    }
    this.cuts.push(i);
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

  private hasCutIn(from: number, to: number): boolean {
    // Cuts are found in time order and asked about near the end: look back from the last one.
    for (let k = this.cuts.length - 1; k >= 0 && this.cuts[k]! > from; k--) {
      if (this.cuts[k]! <= to) return true;
    }
    return false;
  }

  private checkGradual(c: number): void {
    const mid = this.samples.grid(c);
    let score = 0;
    const fired = new Set<number>();
    for (const w of this.windows) {
      const a = this.samples.grid(c - w);
      const b = this.samples.grid(c + w);
      if (!mid || !a || !b || c - w < 0) continue;
      const dab = dist(a, b);
      if (dab < GRAD_MIN || this.hasCutIn(c - w, c + w)) continue;
      const s = this.linearScore(c, w, dab) || this.dipScore(c, w, dab);
      if (s > 0) fired.add(w);
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
    const flat = black || white || this.dips(c);
    if (score > 0 || flat) {
      if (this.open && c - this.open.to <= MERGE_GAP) {
        this.open.to = c;
        for (const w of fired) this.open.windows.add(w);
        if (wipe > 0) this.open.wipe = true;
        if (score > this.open.bestScore) {
          this.open.best = c;
          this.open.bestScore = score;
        }
      } else {
        this.closeOpen();
        this.open = { from: c, to: c, best: c, bestScore: score, windows: fired, wipe: wipe > 0 };
      }
    }
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
    if (evidence === 0) return 0;
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
    return Math.sqrt(this.samples.stat(i)?.variance ?? 0);
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
   * Much darker (or much brighter) than the pictures `span` samples before and after: the bottom
   * of a fade through black (or white).
   */
  private dips(c: number): boolean {
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

  private closeOpen(): void {
    const t = this.open;
    this.open = undefined;
    if (!t) return;
    const n = this.visual.count;
    // A dark stretch at the very start or end is a fade in/out of the video, not a transition.
    if (t.from <= 1 || t.to >= n - 2) return;
    if (this.hasCutIn(t.from - 1, t.to + 1)) return;
    if (this.isBlip(t)) return;
    // A long dark stretch without any blend around it is a dark shot, not a fade.
    if (t.bestScore === 0 && t.to - t.from > 3 * this.o.fps) return;
    // The colours placed this transition already, from its whole course.
    const h = this.mixture.half;
    const last = this.gradual.at(-1);
    if (last?.colours && last.to >= t.from - h && last.from <= t.to + h) return;
    this.gradual.push(t);
  }

  /**
   * Whether a short dip to black or white without blend evidence is a flash (or a blink of the
   * light): the picture after it is the one before it, up to a camera move.
   */
  private isBlip(t: Transition): boolean {
    if (t.wipe || t.windows.size > 0 || t.to - t.from > FLASH) return false;
    const a = this.samples.grid(t.from - 1);
    const b = this.samples.grid(t.to + 1);
    const mid = this.samples.grid((t.from + t.to) >> 1);
    if (!a || !b || !mid) return false;
    const depth = dist(a, mid);
    const back = dist(a, b);
    return back < 0.3 * depth || movedDist(a, b, GRID_W, GRID_H, 0.3 * depth) < 0.3 * depth;
  }

  /**
   * The darkest (or brightest) sample when the transition fades through black (or white),
   * otherwise its most linear centre or the middle of its wipe; none when only one window size
   * saw a blend (a real dissolve shows at several scales).
   */
  private placeTransition(t: Transition): { i: number; sure: boolean } | undefined {
    const y = (i: number): number => this.visual.luma.get(i);
    // Through black the depth is the darkness; through white, the room left below white.
    for (const depth of [y, (i: number) => 1 - y(i)]) {
      let deepest = t.from;
      for (let i = t.from; i <= t.to; i++) if (depth(i) < depth(deepest)) deepest = i;
      const bottom = depth(deepest);
      const around = Math.min(depth(t.from - 1), depth(t.to + 1));
      if (bottom < DARK || bottom < 0.5 * around) {
        const lit = Math.min(depth(t.from - this.span), depth(t.to + this.span));
        return { i: fadeBottom(depth, t.from, t.to, Math.max(lit, around)), sure: true };
      }
    }
    if (t.wipe) return { i: t.best, sure: true };
    if (t.windows.size >= 2) return { i: t.best, sure: false };
    return t.mixAt === undefined ? undefined : { i: t.mixAt, sure: false };
  }
}

/** Where value goes in the ascending array xs (binary search). */
function sortedIndex(xs: readonly number[], value: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
