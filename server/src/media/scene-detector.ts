// Scene boundaries from the stream of tiny RGB frames (see analysis-pass.ts), without ffmpeg's
// scdet (absent in 4.1): hard cuts (scene-cut-check.ts), fades, dissolves and wipes sample by
// sample (scene-gradual.ts), and gradual transitions between moving shots by their colours
// (scene-mixture.ts). Gradual candidates close to each other form one transition, kept when it
// dips to black or white, is a wipe or seen by the colours, or when blend evidence came at two
// window sizes or more; then the boundaries are placed (scene-placement.ts).
import { ColourRamp } from './scene-colour-ramp.ts';
import { CrossingMoveCheck } from './scene-crossing-move.ts';
import { dist } from './scene-detect-signals.ts';
import { CutCheck, FLASH, STILL_CUT_MIN } from './scene-cut-check.ts';
import { GradualEvidence, type Transition } from './scene-gradual.ts';
import { Layouts } from './scene-layout.ts';
import { MixtureEvidence } from './scene-mixture.ts';
import { evidenceSpan, joinNear, placeBoundaries } from './scene-placement.ts';
import { RecentSamples } from './scene-samples.ts';
import { StillChange } from './scene-still-change.ts';
import { VisualSamples } from './visual.ts';

export interface DetectorOptions {
  fps: number;
  width: number;
  height: number;
  minSceneMs: number;
  /** At most this many scenes: the strongest boundaries are kept (work per scene is bounded). */
  maxScenes?: number;
}

const MERGE_GAP = 4;
/** Gradual evidence this close (seconds) is one transition's (see joinNear). */
const JOIN_SECONDS = 1.2;
/** Samples looked at after a transition window (is the picture still there?). */
const LOOKAHEAD = 2;
export class SceneDetector {
  readonly visual: VisualSamples;
  private readonly samples: RecentSamples;
  /** Each sample's coarse layout, for the drift beside a transition (scene-layout.ts). */
  private readonly layouts: Layouts;
  private readonly cutCheck: CutCheck;
  private readonly evidence: GradualEvidence;
  private readonly span: number;
  private previous: Uint8Array | undefined;
  private readonly cuts: number[] = [];
  private readonly gradual: Transition[] = [];
  private open: Transition | undefined;
  private readonly mixture: MixtureEvidence;
  private readonly stillChange: StillChange;
  /** Middles of gradual changes between still pictures (scene-still-change.ts). */
  private readonly stillChanges: number[] = [];
  /** JOIN_SECONDS in samples. */
  private readonly joinGap: number;
  /** Each sample's mean colour, and where a blend's colours pass (rampAt). */
  private readonly colourRamp: ColourRamp;
  /** rampAt's answers by evidence span (settled() asks again and again; each is final). */
  private readonly ramps = new Map<string, number | undefined>();
  /** Whether a camera move explains a colour crossing. */
  private readonly crossingMove: CrossingMoveCheck;
  /** finish() was called: no sample comes after. */
  private finished = false;

  constructor(private readonly o: DetectorOptions) {
    this.visual = new VisualSamples(o.fps);
    this.span = GradualEvidence.spanAt(o.fps);
    this.samples = new RecentSamples(o.width, o.height, 2 * this.span + 2 + LOOKAHEAD);
    this.cutCheck = new CutCheck(this.visual, this.samples);
    this.layouts = new Layouts(o.width, o.height);
    this.evidence = new GradualEvidence(
      this.visual,
      this.samples,
      this.layouts,
      o.fps,
      (from, to) => this.hasCutIn(from, to),
    );
    this.mixture = new MixtureEvidence(o.fps);
    this.stillChange = new StillChange(o.fps);
    this.joinGap = Math.round(JOIN_SECONDS * o.fps);
    this.colourRamp = new ColourRamp(o.fps);
    this.crossingMove = new CrossingMoveCheck(this.visual, this.samples, this.evidence.windows[1]!);
  }

  /** One rgb24 frame of width x height, the next sample in time. */
  push(frame: Uint8Array): void {
    this.visual.add(frame, this.previous);
    this.previous = new Uint8Array(frame); // a copy: Buffer#slice would share memory
    this.samples.push(frame);
    this.layouts.push(frame);
    const n = this.visual.count;
    this.colourRamp.push(this.samples.stat(n - 1)!.mean);
    // Cuts are confirmed FLASH samples late (flash check); gradual centres `span` samples late.
    if (n >= FLASH + 2) this.checkCut(n - 1 - FLASH);
    if (n > 2 * this.span + LOOKAHEAD) {
      const c = n - 1 - this.span - LOOKAHEAD;
      this.checkGradual(c);
      // Too far behind to grow: closed now, as the next transition or finish() would close it.
      if (this.open && c - this.open.to > MERGE_GAP) this.closeOpen();
    }
    this.checkStillChange(n - 1);
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
    if (this.crossingMove.moved(at)) return;
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

  /** A run of change between still pictures that ended at sample i, when the pictures differ. */
  private checkStillChange(i: number): void {
    const run = this.stillChange.push(i, this.visual.motion.get(i));
    if (!run || this.hasCutIn(run.from - 1, run.to + 1)) return;
    const a = this.samples.grid(run.from - 1);
    const b = this.samples.grid(run.to);
    if (!a || !b || dist(a, b) < STILL_CUT_MIN) return;
    this.stillChanges.push(Math.round((run.from - 1 + run.to) / 2));
  }

  /** Scene start times after the first scene, in ms, at least minSceneMs apart. */
  finish(): number[] {
    const n = this.visual.count;
    for (let i = Math.max(1, n - FLASH); i < n; i++) this.checkCut(i);
    this.closeOpen();
    this.finished = true;
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
    // Evidence still to come may join a group of transitions it comes near, moving its place.
    const groups = this.groups();
    // ...and the mean colour's ramp around a blend (rampAt) and the drift beside it (place) read
    // samples and cuts beyond it.
    const reach = Math.min(
      frontier - 1 - this.joinGap,
      n - 1 - this.mixture.lag - Math.max(this.colourRamp.reach, this.evidence.reach),
    );
    for (const g of groups) {
      if (!this.isPrecise(g[0]!) && Math.max(...g.map((t) => evidenceSpan(t).hi)) >= reach) {
        frontier = Math.min(frontier, Math.min(...g.map((t) => evidenceSpan(t).lo)));
        break;
      }
    }
    if (frontier <= 0) return [];
    const placed = this.placeAll(groups);
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
  private placeAll(groups = this.groups()): Map<number, boolean> {
    const placed = new Map<number, boolean>();
    for (const i of this.stillChanges) placed.set(i, true);
    for (const group of groups) {
      const at = this.placeRefined(group);
      if (at) placed.set(at.i, placed.get(at.i) === true || at.sure);
    }
    return placed;
  }

  /** The gradual transitions, those near each other grouped as one (see joinNear). */
  private groups(): Transition[][] {
    return joinNear(this.gradual, this.joinGap, (t) => this.isPrecise(t));
  }

  /** A fade (its bottom) or an edge crossing the picture (its middle): placed by itself. */
  private isPrecise(t: Transition): boolean {
    return (t.wipe && !t.colours) || this.evidence.fadeAt(t) !== undefined;
  }

  /**
   * Where a group of near transitions goes: one alone where its evidence places it; pieces of one
   * long transition at the middle of all their evidence (each piece peaks off its middle).
   */
  private placeGroup(group: Transition[]): { i: number; sure: boolean } | undefined {
    const places = group.map((t) => this.evidence.place(t));
    if (group.length === 1 || places.every((p) => p === undefined)) return places[0];
    // Only pieces that count as a transition by themselves: a weak blend at one window size
    // beside one (a zoom's, a pan's) is no part of it.
    const kept = group.filter((_, k) => places[k] !== undefined);
    const lo = Math.min(...kept.map((t) => evidenceSpan(t).lo));
    const hi = Math.max(...kept.map((t) => evidenceSpan(t).hi));
    return { i: (lo + hi) >> 1, sure: places.some((p) => p?.sure === true) };
  }

  /** placeGroup, then moved to the middle of the mean colour's ramp where one fits (rampAt). */
  private placeRefined(group: Transition[]): { i: number; sure: boolean } | undefined {
    const at = this.placeGroup(group);
    // Fades and edge wipes are placed by themselves, wipes seen by their colours alone at the
    // crossing (a wipe's colours are a true mixture of the shots'). Only blends the colours
    // confirmed: a pan's drift fits a ramp as well, and its false blends stay where min-scene
    // drops them beside a cut.
    if (!at || this.isPrecise(group[0]!) || group.every((t) => t.windows.size === 0)) return at;
    if (group.every((t) => t.mixAt === undefined)) return at;
    const lo = Math.min(...group.map((t) => evidenceSpan(t).lo));
    const hi = Math.max(...group.map((t) => evidenceSpan(t).hi));
    // Until every sample, cut and transition the ramp may read has been judged, the evidence's
    // own place (settled() holds such a group back).
    if (!this.finished && hi + this.colourRamp.reach > this.visual.count - 1 - this.mixture.lag)
      return at;
    const key = `${lo}/${hi}`;
    if (!this.ramps.has(key)) this.ramps.set(key, this.rampAt(lo, hi));
    const i = this.ramps.get(key);
    return i === undefined ? at : { i, sure: at.sure };
  }

  /**
   * The middle of the mean colour's ramp around evidence lo..hi (scene-colour-ramp.ts), looked
   * for between the cuts and the other transitions' evidence around it.
   */
  private rampAt(lo: number, hi: number): number | undefined {
    let from = Math.max(0, lo - this.colourRamp.reach);
    let to = Math.min(this.visual.count - 1, hi + this.colourRamp.reach);
    for (const c of this.cuts) {
      if (c <= lo && c > from) from = c;
      if (c > hi && c - 1 < to) to = c - 1;
    }
    // Nor into the evidence of the transitions either side.
    for (const t of this.open ? [...this.gradual, this.open] : this.gradual) {
      const e = evidenceSpan(t);
      if (e.hi < lo && e.hi + 1 > from) from = e.hi + 1;
      if (e.lo > hi && e.lo - 1 < to) to = e.lo - 1;
    }
    return this.colourRamp.middle(from, to, lo, hi);
  }

  /** The boundaries among the candidates (see scene-placement.ts), as times in ms. */
  private place(
    candidates: number[],
    transitions: Map<number, boolean>,
    endMs: number,
    room: number,
  ): number[] {
    return placeBoundaries({
      candidates,
      cuts: new Set(this.cuts),
      transitions,
      strength: (i) => this.visual.motion.get(i),
      timeMs: (i) => this.visual.timeMs(i),
      minSceneMs: this.o.minSceneMs,
      endMs,
      room,
    });
  }

  private checkCut(i: number): void {
    if (this.cutCheck.isCut(i)) this.cuts.push(i);
  }

  private hasCutIn(from: number, to: number): boolean {
    // Cuts are found in time order and asked about near the end: look back from the last one.
    for (let k = this.cuts.length - 1; k >= 0 && this.cuts[k]! > from; k--) {
      if (this.cuts[k]! <= to) return true;
    }
    return false;
  }

  private checkGradual(c: number): void {
    const { score, fired, wipe, flat, faint } = this.evidence.at(c);
    if (score > 0 || flat || faint) {
      if (this.open && c - this.open.to <= MERGE_GAP) {
        this.open.to = c;
        for (const w of fired) this.open.windows.add(w);
        if (wipe) this.open.wipe = true;
        if (score > this.open.bestScore) {
          this.open.best = c;
          this.open.bestScore = score;
        }
        if (score > 0 || flat) this.open.faint = false;
      } else {
        this.closeOpen();
        this.open = { from: c, to: c, best: c, bestScore: score, windows: fired, wipe };
        if (score === 0 && !flat) this.open.faint = true;
      }
    }
  }

  private closeOpen(): void {
    const t = this.open;
    this.open = undefined;
    if (!t) return;
    const n = this.visual.count;
    // A dark stretch at the very start or end is a fade in/out of the video, not a transition.
    if (t.from <= 1 || t.to >= n - 2) return;
    if (this.hasCutIn(t.from - 1, t.to + 1)) return;
    if (this.evidence.isBlip(t)) return;
    // A long dark stretch without any blend around it is a dark shot, not a fade.
    if (t.bestScore === 0 && t.to - t.from > 3 * this.o.fps) return;
    // The colours placed this transition already, from its whole course.
    const h = this.mixture.half;
    const last = this.gradual.at(-1);
    if (last?.colours && last.to >= t.from - h && last.from <= t.to + h) return;
    this.gradual.push(t);
  }
}
