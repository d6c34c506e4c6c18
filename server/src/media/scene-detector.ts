// Scene boundaries from the stream of tiny RGB frames (see analysis-pass.ts), without ffmpeg's
// scdet (absent in 4.1). Three signals:
// - hard cut: a jump between two samples far above the recent frame-to-frame change, that is
//   not a one-sample flash;
// - dissolve: over a window a..b the picture moves from F(a) to F(b) along a straight line, i.e.
//   the middle sample is close to the average of the ends (twin frames of a cross-fade), which
//   camera or object motion does not do;
// - fade through black: a dip of brightness to near black between two lit pictures.
// Gradual candidates close to each other form one transition; its boundary is the darkest
// sample when the transition dips to black, else the most linear centre.
import { VisualSamples } from './visual.ts';

export interface DetectorOptions {
  fps: number;
  width: number;
  height: number;
  minSceneMs: number;
}

const CUT_MIN = 0.12;
const CUT_RATIO = 3;
const GRAD_MIN = 0.09;
const LINEAR_MAX = 0.2;
const DARK = 0.035;
const MERGE_GAP = 4;
/** The coarse grid of block means used for transitions (a 2x2 reduction of the 64x36 frames). */
const GRID_W = 32;
const GRID_H = 18;

type Grid = Float32Array;

/** Mean absolute difference of two grids, 0..1. */
function dist(a: Grid, b: Grid): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
}

/** Mean absolute difference of c from the blend (1-t)·a + t·b. */
function blendResidual(a: Grid, b: Grid, c: Grid, t: number): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(c[i]! - (a[i]! * (1 - t) + b[i]! * t));
  return s / a.length;
}

/**
 * Whether a camera move explains the change from a to b: some shift or zoom of a (about the
 * centre) brings it at least halfway to b. A cross-fade between two shots does not do that.
 */
function explainedByMotion(a: Grid, b: Grid, w: number, h: number, dab: number): boolean {
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (const zoom of [1, 0.8, 0.9, 1.12, 1.25]) {
    for (let dy = -3; dy <= 3; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        if (zoom === 1 && dx === 0 && dy === 0) continue;
        if (zoom !== 1 && (Math.abs(dx) > 1 || Math.abs(dy) > 1)) continue;
        let sum = 0;
        let count = 0;
        for (let y = 0; y < h; y++) {
          const sy = Math.round(cy + (y - cy) * zoom + dy);
          if (sy < 0 || sy >= h) continue;
          for (let x = 0; x < w; x++) {
            const sx = Math.round(cx + (x - cx) * zoom + dx);
            if (sx < 0 || sx >= w) continue;
            const p = (y * w + x) * 3;
            const q = (sy * w + sx) * 3;
            sum +=
              Math.abs(b[p]! - a[q]!) +
              Math.abs(b[p + 1]! - a[q + 1]!) +
              Math.abs(b[p + 2]! - a[q + 2]!);
            count += 3;
          }
        }
        if (count > (w * h * 3) / 2 && sum / count < 0.5 * dab) return true;
      }
    }
  }
  return false;
}

interface Transition {
  from: number;
  to: number;
  best: number;
  bestScore: number;
}

export class SceneDetector {
  readonly visual: VisualSamples;
  private readonly windows: number[];
  private readonly span: number;
  private readonly ring: Grid[] = [];
  private previous: Uint8Array | undefined;
  private readonly cuts: number[] = [];
  private readonly gradual: Transition[] = [];
  private open: Transition | undefined;

  constructor(private readonly o: DetectorOptions) {
    this.visual = new VisualSamples(o.fps);
    // Half-widths from 0.2 s to 1.2 s: dissolves and fades up to about 2.4 s long.
    this.windows = [0.2, 0.35, 0.5, 0.8, 1.2].map((s) => Math.max(1, Math.round(s * o.fps)));
    this.span = Math.max(...this.windows);
  }

  /** One rgb24 frame of width x height, the next sample in time. */
  push(frame: Uint8Array): void {
    this.visual.add(frame, this.previous);
    this.previous = new Uint8Array(frame); // a copy: Buffer#slice would share memory
    this.ring.push(this.toGrid(frame));
    if (this.ring.length > 2 * this.span + 2) this.ring.shift();
    const n = this.visual.count;
    // Cuts are confirmed one sample late (flash check); gradual centres `span` samples late.
    if (n >= 3) this.checkCut(n - 2);
    if (n > 2 * this.span) this.checkGradual(n - 1 - this.span);
  }

  /** Scene start times after the first scene, in ms, at least minSceneMs apart. */
  finish(): number[] {
    const n = this.visual.count;
    if (n >= 2) this.checkCut(n - 1);
    this.closeOpen();
    // Hard cuts are the surest boundaries: they claim their place first, then the transitions;
    // anything closer than the minimum scene length to a kept boundary or an end is dropped.
    const strongestFirst = [...this.cuts].sort(
      (x, y) => this.visual.motion.get(y) - this.visual.motion.get(x),
    );
    const ordered = [...strongestFirst, ...this.gradual.map((t) => this.placeTransition(t))];
    const end = this.visual.timeMs(n);
    const kept: number[] = [];
    for (const i of ordered) {
      const ms = this.visual.timeMs(i);
      const fits =
        ms >= this.o.minSceneMs &&
        end - ms >= this.o.minSceneMs &&
        kept.every((k) => Math.abs(k - ms) >= this.o.minSceneMs);
      if (fits) kept.push(ms);
    }
    return kept.sort((a, b) => a - b);
  }

  /** Block means over a coarse grid, 0..1: motion inside a block averages out, a blend does not. */
  private toGrid(frame: Uint8Array): Grid {
    const { width, height } = this.o;
    const bw = width / GRID_W;
    const bh = height / GRID_H;
    const grid = new Float32Array(GRID_W * GRID_H * 3);
    for (let y = 0; y < height; y++) {
      const gy = Math.floor(y / bh);
      for (let x = 0; x < width; x++) {
        const g = (gy * GRID_W + Math.floor(x / bw)) * 3;
        const p = (y * width + x) * 3;
        grid[g] = grid[g]! + frame[p]!;
        grid[g + 1] = grid[g + 1]! + frame[p + 1]!;
        grid[g + 2] = grid[g + 2]! + frame[p + 2]!;
      }
    }
    const scale = 1 / (bw * bh * 255);
    for (let i = 0; i < grid.length; i++) grid[i] = grid[i]! * scale;
    return grid;
  }

  /** The grid of sample i, when still in the ring. */
  private grid(i: number): Grid | undefined {
    const offset = this.visual.count - 1 - i;
    return this.ring[this.ring.length - 1 - offset];
  }

  private checkCut(i: number): void {
    const d = this.visual.motion.get(i);
    if (d < CUT_MIN) return;
    let baseline = 0;
    let k = 0;
    for (let j = i - 1; j >= Math.max(1, i - 5); j--, k++) baseline += this.visual.motion.get(j);
    baseline = k > 0 ? baseline / k : 0;
    if (d < CUT_RATIO * Math.max(baseline, 0.01)) return;
    const before = this.grid(i - 1);
    const after = this.grid(i + 1);
    // A flash returns to the old picture right away.
    if (before && after && dist(before, after) < 0.5 * d) return;
    this.cuts.push(i);
  }

  private hasCutIn(from: number, to: number): boolean {
    return this.cuts.some((c) => c > from && c <= to);
  }

  private checkGradual(c: number): void {
    const mid = this.grid(c);
    let score = 0;
    for (const w of this.windows) {
      const a = this.grid(c - w);
      const b = this.grid(c + w);
      if (!mid || !a || !b || c - w < 0) continue;
      const dab = dist(a, b);
      if (dab < GRAD_MIN || this.hasCutIn(c - w, c + w)) continue;
      const r = blendResidual(a, b, mid, 0.5);
      if (r > LINEAR_MAX * dab) continue;
      const q1 = this.grid(c - (w >> 1));
      const q3 = this.grid(c + (w >> 1));
      if (w >= 4 && q1 && q3) {
        const t = (w >> 1) / (2 * w);
        const r1 = blendResidual(a, b, q1, 0.5 - t);
        const r3 = blendResidual(a, b, q3, 0.5 + t);
        if (Math.max(r1, r3) > LINEAR_MAX * dab) continue;
      }
      if (explainedByMotion(a, b, GRID_W, GRID_H, dab)) continue;
      score = Math.max(score, dab * (1 - r / dab));
    }
    const dark = this.visual.luma.get(c) < DARK || this.dips(c);
    if (score > 0 || dark) {
      if (this.open && c - this.open.to <= MERGE_GAP) {
        this.open.to = c;
        if (score > this.open.bestScore) {
          this.open.best = c;
          this.open.bestScore = score;
        }
      } else {
        this.closeOpen();
        this.open = { from: c, to: c, best: c, bestScore: score };
      }
    }
  }

  /** Much darker than the pictures `span` samples before and after: the bottom of a fade. */
  private dips(c: number): boolean {
    const luma = this.visual.luma.get(c);
    const before = this.visual.luma.get(c - this.span);
    const after = this.visual.luma.get(c + this.span);
    return Math.min(before, after) > 2 * DARK && luma < 0.5 * Math.min(before, after);
  }

  private closeOpen(): void {
    const t = this.open;
    this.open = undefined;
    if (!t) return;
    const n = this.visual.count;
    // A dark stretch at the very start or end is a fade in/out of the video, not a transition.
    if (t.from <= 1 || t.to >= n - 2) return;
    if (this.hasCutIn(t.from - 1, t.to + 1)) return;
    // A long dark stretch without any blend around it is a dark shot, not a fade.
    if (t.bestScore === 0 && t.to - t.from > 3 * this.o.fps) return;
    this.gradual.push(t);
  }

  /** The darkest sample when the transition dips to black, otherwise its most linear centre. */
  private placeTransition(t: Transition): number {
    let darkest = t.from;
    for (let i = t.from; i <= t.to; i++) {
      if (this.visual.luma.get(i) < this.visual.luma.get(darkest)) darkest = i;
    }
    const minLuma = this.visual.luma.get(darkest);
    const around = Math.min(this.visual.luma.get(t.from - 1), this.visual.luma.get(t.to + 1));
    if (minLuma < DARK || minLuma < 0.5 * around) {
      const dark = Math.max(DARK, minLuma * 1.5);
      // Middle of the dark run around the darkest sample.
      let a = darkest;
      let b = darkest;
      while (a > t.from && this.visual.luma.get(a - 1) < dark) a--;
      while (b < t.to && this.visual.luma.get(b + 1) < dark) b++;
      return Math.round((a + b) / 2);
    }
    return t.best;
  }
}
