// Each sample's layout: the mean colour of a 4x3 grid of large blocks, kept for the whole video
// (36 numbers a sample: 5 MB an hour). Noise, compression and small movements average out over
// such blocks; what a shot changes over a second or two (a pan, a zoom, a dissolve into another
// framing) does not. The scene detector compares the change across a transition's window with
// the change over the same span just before and after it: its rolling baseline of drift.
import { GrowArray } from '../media/visual.ts';

const LAYOUT_W = 4;
const LAYOUT_H = 3;

export class Layouts {
  private readonly blocks = new GrowArray(LAYOUT_W * LAYOUT_H * 3);
  /** The block of each pixel column and row (worked out once). */
  private columns: Int32Array | undefined;
  private rows: Int32Array | undefined;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  get count(): number {
    return this.blocks.length;
  }

  /** One rgb24 frame of width x height, the next sample in time. */
  push(frame: Uint8Array): void {
    const { width, height } = this;
    const columns = (this.columns ??= Int32Array.from({ length: width }, (_, x) =>
      Math.floor((x * LAYOUT_W) / width),
    ));
    const rows = (this.rows ??= Int32Array.from({ length: height }, (_, y) =>
      Math.floor((y * LAYOUT_H) / height),
    ));
    const sums = new Array<number>(LAYOUT_W * LAYOUT_H * 3).fill(0);
    for (let y = 0, p = 0; y < height; y++) {
      const row = rows[y]! * LAYOUT_W;
      for (let x = 0; x < width; x++, p += 3) {
        const b = (row + columns[x]!) * 3;
        sums[b] = sums[b]! + frame[p]!;
        sums[b + 1] = sums[b + 1]! + frame[p + 1]!;
        sums[b + 2] = sums[b + 2]! + frame[p + 2]!;
      }
    }
    const scale = (LAYOUT_W * LAYOUT_H) / (width * height * 255);
    this.blocks.push(...sums.map((s) => s * scale));
  }

  /** Mean absolute difference of the layouts of samples i and j (clamped to those pushed), 0..1. */
  drift(i: number, j: number): number {
    const last = this.count - 1;
    const a = Math.min(last, Math.max(0, i));
    const b = Math.min(last, Math.max(0, j));
    const n = LAYOUT_W * LAYOUT_H * 3;
    let s = 0;
    for (let k = 0; k < n; k++) s += Math.abs(this.blocks.get(a, k) - this.blocks.get(b, k));
    return s / n;
  }
}
