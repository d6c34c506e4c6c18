// Per-sample visual measurements (brightness, motion, colour names) taken from the tiny RGB
// frames of the analysis pass, and their summary over a scene. Pure and streaming.

export const COLOR_NAMES = [
  'black',
  'white',
  'grey',
  'red',
  'orange',
  'brown',
  'yellow',
  'green',
  'cyan',
  'blue',
  'purple',
  'pink',
] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

/** Index into COLOR_NAMES of the everyday name of an RGB colour. */
export function colorIndex(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const v = max / 255;
  const s = max === 0 ? 0 : (max - min) / max;
  if (v < 0.18) return 0;
  if (s < 0.18) return v > 0.85 ? 1 : 2;
  let h: number;
  const d = max - min;
  if (max === r) h = ((g - b) / d) * 60;
  else if (max === g) h = ((b - r) / d) * 60 + 120;
  else h = ((r - g) / d) * 60 + 240;
  if (h < 0) h += 360;
  if (h < 15 || h >= 345) return 3;
  if (h < 40) return v < 0.6 ? 5 : 4;
  if (h < 70) return v < 0.5 ? 5 : 6;
  if (h < 165) return 7;
  if (h < 195) return 8;
  if (h < 255) return 9;
  if (h < 290) return 10;
  return 11;
}

/** A Float32Array that grows by doubling. */
export class GrowArray {
  private data: Float32Array;
  length = 0;
  constructor(private readonly stride = 1) {
    this.data = new Float32Array(1024 * stride);
  }
  push(...values: number[]): void {
    if ((this.length + 1) * this.stride > this.data.length) {
      const bigger = new Float32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data.set(values, this.length * this.stride);
    this.length += 1;
  }
  get(i: number, k = 0): number {
    return this.data[i * this.stride + k] ?? 0;
  }
  /** A copy of the values pushed, one row after the other. */
  values(): Float32Array {
    return this.data.slice(0, this.length * this.stride);
  }
  /** Replaces the contents with rows of values (as values() gave them). */
  load(values: Float32Array): void {
    this.data = new Float32Array(Math.max(values.length, 1024 * this.stride));
    this.data.set(values);
    this.length = values.length / this.stride;
  }
}

/** VisualSamples as plain data (it crosses from the media thread). */
export interface VisualData {
  fps: number;
  luma: Float32Array;
  motion: Float32Array;
  colors: Float32Array;
}

export interface SceneVisual {
  /** Mean brightness 0..1. */
  brightness: number;
  /** 0..1: share of the picture that changes between samples 0.1 s apart, times ten, capped. */
  motion: number;
  /** Colour names covering at least 10 % of the picture, most first (at most 3). */
  dominantColors: string[];
}

/** Measurements of every sample of the analysis pass: a few numbers each, not the frames. */
export class VisualSamples {
  readonly luma = new GrowArray();
  readonly motion = new GrowArray();
  readonly colors = new GrowArray(COLOR_NAMES.length);

  constructor(readonly fps: number) {}

  static fromData(d: VisualData): VisualSamples {
    const samples = new VisualSamples(d.fps);
    samples.luma.load(d.luma);
    samples.motion.load(d.motion);
    samples.colors.load(d.colors);
    return samples;
  }

  data(): VisualData {
    const { fps, luma, motion, colors } = this;
    return { fps, luma: luma.values(), motion: motion.values(), colors: colors.values() };
  }

  add(frame: Uint8Array, previous: Uint8Array | undefined): number {
    const counts = new Array<number>(COLOR_NAMES.length).fill(0);
    let lumaSum = 0;
    let diffSum = 0;
    const pixels = frame.length / 3;
    for (let p = 0, even = true; p < frame.length; p += 3, even = !even) {
      const r = frame[p]!;
      const g = frame[p + 1]!;
      const b = frame[p + 2]!;
      lumaSum += 0.299 * r + 0.587 * g + 0.114 * b;
      // Every other pixel is enough for colour shares and halves the cost.
      if (even) counts[colorIndex(r, g, b)]! += 2;
    }
    if (previous) {
      for (let p = 0; p < frame.length; p++) diffSum += Math.abs(frame[p]! - previous[p]!);
    }
    const diff = previous ? diffSum / (frame.length * 255) : 0;
    this.luma.push(lumaSum / (pixels * 255));
    this.motion.push(diff);
    this.colors.push(...counts.map((c) => c / pixels));
    return diff;
  }

  get count(): number {
    return this.luma.length;
  }

  timeMs(i: number): number {
    return Math.round((i * 1000) / this.fps);
  }

  /** Index of the first sample at or after ms. */
  indexAt(ms: number): number {
    return Math.min(this.count, Math.max(0, Math.ceil((ms * this.fps) / 1000 - 1e-6)));
  }

  summarise(startMs: number, endMs: number): SceneVisual {
    const from = this.indexAt(startMs);
    const to = Math.max(from + 1, Math.min(this.count, this.indexAt(endMs)));
    let luma = 0;
    let motion = 0;
    let motionN = 0;
    const shares = new Array<number>(COLOR_NAMES.length).fill(0);
    for (let i = from; i < to; i++) {
      luma += this.luma.get(i);
      if (i > from) {
        motion += this.motion.get(i);
        motionN += 1;
      }
      for (let k = 0; k < COLOR_NAMES.length; k++) shares[k]! += this.colors.get(i, k);
    }
    const n = Math.max(1, to - from);
    const round = (x: number): number => Math.round(x * 1000) / 1000;
    return {
      brightness: round(luma / n),
      motion: round(Math.min(1, (motion / Math.max(1, motionN)) * 10)),
      dominantColors: shares
        .map((s, k) => ({ name: COLOR_NAMES[k]!, share: s / n }))
        .filter((c) => c.share >= 0.1)
        .sort((a, b) => b.share - a.share)
        .slice(0, 3)
        .map((c) => c.name),
    };
  }
}
