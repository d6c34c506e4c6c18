// Where the detectors' candidates become scene boundaries (as PySceneDetect's SceneManager
// gathers its detectors' cuts): gradual candidates close to each other form one transition, kept
// when it dips to black or white, is a wipe or seen by the colours, or when blend evidence came
// at enough window sizes; each is placed (at its fade's bottom, its wipe's middle, the middle of
// its evidence or of its mean colour's ramp); then cuts, the surer transitions and the blends
// claim their places in that order, at least the minimum scene apart (placement.ts). Blends
// between moving shots come last: a run of them is a boundary where its ends stand far above the
// picture's change beside it (GradualEvidence.rollingBlend) and nothing else placed one near.
import type { Candidates, MovingBlend, Transition } from './detector.ts';
import { EDGE_LEADS, type GradualEvidence } from './detectors/gradual-evidence.ts';
import type { Measurements } from './measurements.ts';
import { evidenceSpan, joinNear, placeBoundaries } from './placement.ts';

export interface CombineOptions {
  minSceneMs: number;
  /** Gradual evidence this close (samples) is one transition's (see joinNear). */
  joinGap: number;
  /** How far behind the newest sample the colours judge (the ramp waits for them). */
  colourLag: number;
}

/** Blends between moving shots this close (samples) are one run (as gradual.ts's MERGE_GAP). */
const MOVING_GAP = 4;

export class Combiner {
  /** rampAt's answers by evidence span (settled() asks again and again; each is final). */
  private readonly ramps = new Map<string, number | undefined>();
  /** No sample comes after: the ramps may read to the end. */
  finished = false;

  constructor(
    private readonly m: Measurements,
    private readonly found: Candidates,
    private readonly evidence: GradualEvidence,
    private readonly o: CombineOptions,
  ) {}

  /** Each kept transition's sample, and whether it is a fade or a wipe (surer than a blend). */
  placeAll(groups = this.groups()): Map<number, boolean> {
    const placed = new Map<number, boolean>();
    for (const i of this.found.stillChanges) placed.set(i, true);
    const gap = this.o.joinGap;
    // A fade's bottom and a wipe's edge place their transition by themselves (isPrecise); blend
    // or colour evidence within the join gap of one is that transition's too (a long wipe's start
    // or end seen as a blend, 1.1-1.6 s from its edge's middle), not a second boundary. Unless the
    // edge is weak beside it (edgeYields): a dissolve's blend placed by an edge seen once at its
    // start was 0.6 s off.
    const precise = groups.filter((g) => this.isPrecise(g[0]!)).map((g) => g[0]!);
    const near = (p: Transition, group: Transition[]): boolean => {
      const e = evidenceSpan(p);
      const lo = Math.min(...group.map((t) => evidenceSpan(t).lo));
      const hi = Math.max(...group.map((t) => evidenceSpan(t).hi));
      return e.lo - hi <= gap && lo - e.hi <= gap;
    };
    const yields = new Set<Transition>();
    for (const group of groups) {
      if (this.isPrecise(group[0]!) || !this.placeRefined(group)) continue;
      const strongest = Math.max(...group.map((t) => t.bestScore));
      for (const p of precise) {
        if (near(p, group) && this.edgeYields(p, strongest)) yields.add(p);
      }
    }
    for (const group of groups) {
      const at = this.placeRefined(group);
      if (!at) continue;
      if (
        this.isPrecise(group[0]!)
          ? yields.has(group[0]!)
          : precise.some((p) => !yields.has(p) && near(p, group))
      )
        continue;
      placed.set(at.i, placed.get(at.i) === true || at.sure);
    }
    const taken = [...placed.keys()];
    for (const run of this.movingRuns()) {
      const i = this.evidence.rollingBlend(run);
      if (i === undefined || this.found.hasCutIn(i - gap - 1, i + gap)) continue;
      if (taken.some((j) => Math.abs(j - i) <= gap)) continue;
      placed.set(i, false);
    }
    return placed;
  }

  /** The blends between moving shots, in runs of centres at most MOVING_GAP samples apart. */
  movingRuns(): MovingBlend[][] {
    const runs: MovingBlend[][] = [];
    for (const b of this.found.movingBlends) {
      const run = runs.at(-1);
      if (run && b.c - run.at(-1)!.c <= MOVING_GAP) run.push(b);
      else runs.push([b]);
    }
    return runs;
  }

  /** The gradual transitions, those near each other grouped as one (see joinNear). */
  groups(): Transition[][] {
    return joinNear(this.found.gradual, this.o.joinGap, (t) => this.isPrecise(t));
  }

  /** A wipe's edge (not a fade) whose evidence may yield to stronger blend evidence beside it. */
  isEdge(t: Transition): boolean {
    return t.wipe && !t.colours && this.evidence.fades.fadeAt(t) === undefined;
  }

  /**
   * Whether an edge's transition goes where blend evidence of `strongest` beside it places it:
   * when the edge is under EDGE_LEADS of it (as within one transition, GradualEvidence.place).
   */
  private edgeYields(t: Transition, strongest: number): boolean {
    return this.isEdge(t) && (t.wipeScore ?? 0) < EDGE_LEADS * strongest;
  }

  /** A fade (its bottom) or an edge crossing the picture (its middle): placed by itself. */
  isPrecise(t: Transition): boolean {
    return (t.wipe && !t.colours) || this.evidence.fades.fadeAt(t) !== undefined;
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
    if (!this.finished && hi + this.m.colourRamp.reach > this.m.count - 1 - this.o.colourLag)
      return at;
    const key = `${lo}/${hi}`;
    if (!this.ramps.has(key)) this.ramps.set(key, this.rampAt(lo, hi));
    const i = this.ramps.get(key);
    return i === undefined ? at : { i, sure: at.sure };
  }

  /**
   * The middle of the mean colour's ramp around evidence lo..hi (signals/colour-ramp.ts), looked
   * for between the cuts and the other transitions' evidence around it.
   */
  private rampAt(lo: number, hi: number): number | undefined {
    let from = Math.max(0, lo - this.m.colourRamp.reach);
    let to = Math.min(this.m.count - 1, hi + this.m.colourRamp.reach);
    for (const c of this.found.cuts) {
      if (c <= lo && c > from) from = c;
      if (c > hi && c - 1 < to) to = c - 1;
    }
    // Nor into the evidence of the transitions either side.
    const { open, gradual } = this.found;
    for (const t of open ? [...gradual, open] : gradual) {
      const e = evidenceSpan(t);
      if (e.hi < lo && e.hi + 1 > from) from = e.hi + 1;
      if (e.lo > hi && e.lo - 1 < to) to = e.lo - 1;
    }
    return this.m.colourRamp.middle(from, to, lo, hi);
  }

  /** The boundaries among the candidates (see placement.ts), as times in ms. */
  place(
    candidates: number[],
    transitions: Map<number, boolean>,
    endMs: number,
    room: number,
  ): number[] {
    return placeBoundaries({
      candidates,
      cuts: new Set(this.found.cuts),
      transitions,
      // A cut's change beyond the light: a flash in a pan jumps further than the cut beside it.
      strength: (i) => this.found.cutStrength.get(i) ?? this.m.visual.motion.get(i),
      timeMs: (i) => this.m.visual.timeMs(i),
      minSceneMs: this.o.minSceneMs,
      endMs,
      room,
    });
  }
}
