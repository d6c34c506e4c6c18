// Scene boundaries from the stream of tiny RGB frames (see media/analysis-pass.ts), without
// ffmpeg's scdet (absent in 4.1). Each frame is measured once (measurements.ts); the detectors
// (detector.ts) judge the samples behind the newest, in order: hard cuts (detectors/hard-cut.ts),
// gradual transitions (detectors/gradual.ts), runs of change between still pictures
// (detectors/still-change.ts) and the colours' crossings (detectors/colour-mixture.ts); the
// combiner (combine.ts) turns their candidates into boundaries.
import { Candidates, type Detector } from './detector.ts';
import { ColourMixture } from './detectors/colour-mixture.ts';
import { GradualEvidence } from './detectors/gradual-evidence.ts';
import { GradualTransitions, LOOKAHEAD } from './detectors/gradual.ts';
import { HardCuts } from './detectors/hard-cut.ts';
import { StillChanges } from './detectors/still-change.ts';
import { Combiner } from './combine.ts';
import { Measurements } from './measurements.ts';
import { MixtureEvidence } from './signals/colour-mixture.ts';
import { evidenceSpan } from './placement.ts';
import type { VisualSamples } from '../media/visual.ts';

export interface DetectorOptions {
  fps: number;
  width: number;
  height: number;
  minSceneMs: number;
  /** At most this many scenes: the strongest boundaries are kept (work per scene is bounded). */
  maxScenes?: number;
}

/**
 * Gradual evidence this close (seconds) is one transition's (see joinNear): a dissolve of 2.5 s
 * shows the colours' crossing at its start and its blend 1.4 s later (1.2 s placed them as two).
 * Not more: at 1.5 s a dissolve 1.1 s after a fade's ramps was taken for the fade's (combine.ts).
 */
const JOIN_SECONDS = 1.4;

export class SceneDetector {
  readonly measurements: Measurements;
  private readonly found = new Candidates();
  private readonly gradual: GradualTransitions;
  private readonly colours: ColourMixture;
  private readonly detectors: Detector[];
  private readonly combiner: Combiner;
  /** JOIN_SECONDS in samples. */
  private readonly joinGap: number;

  constructor(private readonly o: DetectorOptions) {
    const span = GradualEvidence.spanAt(o.fps);
    this.measurements = new Measurements({
      ...o,
      recent: 2 * span + 2 + LOOKAHEAD,
      windows: GradualEvidence.windowsAt(o.fps),
      histograms: 2 * MixtureEvidence.lagAt(o.fps) + 2,
    });
    const m = this.measurements;
    // A colour crossing gets the camera-move check of the 0.35 s blend window.
    this.colours = new ColourMixture(m, this.found, o.fps, GradualEvidence.windowsAt(o.fps)[1]!);
    this.gradual = new GradualTransitions(m, this.found, o.fps, this.colours.evidence.half);
    this.detectors = [
      new HardCuts(m, this.found),
      this.gradual,
      new StillChanges(m, this.found, o.fps),
      this.colours,
    ];
    this.joinGap = Math.round(JOIN_SECONDS * o.fps);
    this.combiner = new Combiner(m, this.found, this.gradual.evidence, {
      minSceneMs: o.minSceneMs,
      joinGap: this.joinGap,
      colourLag: this.colours.lag,
    });
  }

  /** Every sample's brightness, change and colours. */
  get visual(): VisualSamples {
    return this.measurements.visual;
  }

  /** One rgb24 frame of width x height, the next sample in time. */
  push(frame: Uint8Array): void {
    this.measurements.push(frame);
    for (const d of this.detectors) d.push();
  }

  /** Scene start times after the first scene, in ms, at least minSceneMs apart. */
  finish(): number[] {
    for (const d of this.detectors) d.finish();
    this.combiner.finished = true;
    const placed = this.combiner.placeAll();
    const candidates = [...this.found.cuts, ...placed.keys()];
    return this.combiner.place(
      candidates,
      placed,
      this.visual.timeMs(this.measurements.count),
      (this.o.maxScenes ?? Infinity) - 1,
    );
  }

  /**
   * The boundaries no later sample can change, while the stream goes on: those finish() will
   * answer too, unless the scene cap then drops some. A candidate is settled once every sample
   * that could hold a rival within minSceneMs of it, or of a rival of a rival, has been judged.
   */
  settled(): number[] {
    const n = this.measurements.count;
    // Each detector judges up to its lag behind the newest sample, and an open transition may
    // still grow or be placed anywhere from its start.
    let frontier = n - 1 - Math.max(...this.detectors.map((d) => d.lag));
    if (this.found.open) frontier = Math.min(frontier, this.found.open.from);
    // A run of blends between moving shots is judged on the spans beside it, up to 3 windows on.
    const runs = this.combiner.movingRuns();
    const pending = runs.find((r) => r.at(-1)!.c + 3 * this.gradual.evidence.span > n - 1);
    if (pending) frontier = Math.min(frontier, pending[0]!.c);
    // Evidence still to come may join a group of transitions it comes near, moving its place.
    const groups = this.combiner.groups();
    // ...and the mean colour's ramp around a blend (rampAt) and the drift beside it (place) read
    // samples and cuts beyond it.
    const reach = Math.min(
      frontier - 1 - this.joinGap,
      n -
        1 -
        this.colours.lag -
        Math.max(this.measurements.colourRamp.reach, this.gradual.evidence.reach),
    );
    for (const g of groups) {
      // An edge's place waits for the blend evidence its join gap may still bring (placeAll).
      if (
        (!this.combiner.isPrecise(g[0]!) || this.combiner.isEdge(g[0]!)) &&
        Math.max(...g.map((t) => evidenceSpan(t).hi)) >= reach
      ) {
        frontier = Math.min(frontier, Math.min(...g.map((t) => evidenceSpan(t).lo)));
        break;
      }
    }
    if (frontier <= 0) return [];
    const placed = this.combiner.placeAll(groups);
    const times = [...this.found.cuts, ...placed.keys()]
      .map((i) => ({ i, ms: this.visual.timeMs(i) }))
      .sort((a, b) => b.ms - a.ms);
    let bound = this.visual.timeMs(frontier) - this.o.minSceneMs;
    const sure: number[] = [];
    for (const c of times) {
      if (c.ms > bound) bound = Math.min(bound, c.ms - this.o.minSceneMs);
      else sure.push(c.i);
    }
    return this.combiner.place(sure, placed, Infinity, Infinity);
  }
}
