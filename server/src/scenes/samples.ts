// The scene detector's recent samples: each frame reduced to a coarse grid of block means, its
// blocks' change from the sample before and its statistics, kept for the last `capacity` samples
// and looked up by sample number; and the change left once a camera move is allowed for.
import { movedDist } from './signals/camera-move.ts';
import { blockSteps, frameStats, type FrameStats, type Grid } from './signals/grid.ts';

/** The coarse grid of block means used for transitions (a 2x2 reduction of the 64x36 frames). */
export const GRID_W = 32;
export const GRID_H = 18;

export class RecentSamples {
  /** Samples pushed so far: the newest is number count - 1. */
  private count = 0;
  private readonly ring: Grid[] = [];
  /** Per sample in the ring, each block's change from the sample before (blockSteps). */
  private readonly steps: Float32Array[] = [];
  private readonly stats: FrameStats[] = [];
  /** movedDist between samples i-1 and i, by i (a few recent ones). */
  private readonly moved = new Map<number, number>();
  /**
   * What movedBelow learnt of the change from sample i-1 to i, by i: a move leaves `under` of it
   * (the least such answer), and none leaves less than `atLeast` (the largest such limit asked).
   */
  private readonly movedBounds = new Map<number, { under: number; atLeast: number }>();
  /** The grid column of each pixel column (toGrid). */
  private columns: Int32Array | undefined;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly capacity: number,
  ) {}

  /** One rgb24 frame of width x height, the next sample in time. */
  push(frame: Uint8Array): void {
    const grid = this.toGrid(frame);
    const last = this.ring.at(-1);
    this.steps.push(last ? blockSteps(last, grid) : new Float32Array(GRID_W * GRID_H));
    this.ring.push(grid);
    this.stats.push(frameStats(frame));
    if (this.ring.length > this.capacity) {
      this.ring.shift();
      this.steps.shift();
      this.stats.shift();
    }
    this.count++;
    this.movedBounds.delete(this.count - 1 - this.capacity);
  }

  /** Block means over a coarse grid, 0..1: motion inside a block averages out, a blend does not. */
  private toGrid(frame: Uint8Array): Grid {
    const { width, height } = this;
    const bw = width / GRID_W;
    const bh = height / GRID_H;
    // The grid column of each pixel column, worked out once (the sums are of whole numbers, so
    // the order they are added in does not matter).
    const columns = (this.columns ??= Int32Array.from({ length: width }, (_, x) =>
      Math.floor(x / bw),
    ));
    const grid = new Float32Array(GRID_W * GRID_H * 3);
    for (let y = 0, p = 0; y < height; y++) {
      const row = Math.floor(y / bh) * GRID_W;
      for (let x = 0; x < width; x++, p += 3) {
        const g = (row + columns[x]!) * 3;
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
  grid(i: number): Grid | undefined {
    const offset = this.count - 1 - i;
    return this.ring[this.ring.length - 1 - offset];
  }

  /** Each block's change from sample i-1 to i, when still in the ring. */
  step(i: number): Float32Array | undefined {
    const offset = this.count - 1 - i;
    return this.steps[this.steps.length - 1 - offset];
  }

  /** The frame statistics of sample i, when still in the ring. */
  stat(i: number): FrameStats | undefined {
    const offset = this.count - 1 - i;
    return this.stats[this.stats.length - 1 - offset];
  }

  /**
   * Whether a camera move explains the change from sample i-1 to i up to `limit` (stops at the
   * first move that does: cheaper than movedAt when a shift fits).
   */
  movedBelow(i: number, limit: number): boolean {
    const hit = this.moved.get(i);
    if (hit !== undefined) return hit < limit;
    const a = this.grid(i - 1);
    const b = this.grid(i);
    if (!a || !b) return false;
    // The same pair is asked again and again (each window around it): what an earlier answer
    // proved is not looked for again.
    let known = this.movedBounds.get(i);
    if (known && known.under < limit) return true;
    if (known && known.atLeast >= limit) return false;
    const value = movedDist(a, b, GRID_W, GRID_H, limit);
    known ??= { under: Infinity, atLeast: -Infinity };
    if (value < limit) known.under = Math.min(known.under, value);
    else known.atLeast = Math.max(known.atLeast, limit);
    this.movedBounds.set(i, known);
    return value < limit;
  }

  /** What is left of the change from sample i-1 to i once a camera move is allowed for. */
  movedAt(i: number): number {
    const hit = this.moved.get(i);
    if (hit !== undefined) return hit;
    const a = this.grid(i - 1);
    const b = this.grid(i);
    const value = a && b ? movedDist(a, b, GRID_W, GRID_H) : 0;
    this.moved.set(i, value);
    for (const k of this.moved.keys()) if (k < this.count - this.capacity) this.moved.delete(k);
    return value;
  }
}
