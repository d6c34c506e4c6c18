// Every posting of a query's lists added up per document, for queries that MaxScore can skip
// nothing of (max-score.ts, TAAT_MIN): a range of keys at a time into an open-addressing table
// small enough for the processor's cache, each list read in order once. Over one table for the
// whole query (a million slots, 16 MB) each posting was a cache miss, and adding 265k postings up
// took as long as the walk.
import { seek } from './seek.ts';

/** What adding up reads of a list part (a ScoredList of max-score.ts). */
export interface WeightedList {
  keys: Float64Array;
  impacts: Float32Array;
  length: number;
  /** Impacts above this are another part's to count. */
  cap: number;
  weight: number;
}

/** Scores summed per document, reused from query to query. */
class Accumulator {
  static readonly BITS = 15;
  /** Documents it may hold: half its slots. */
  static readonly CAPACITY = 2 ** (Accumulator.BITS - 1);
  private readonly keys = new Float64Array(2 ** Accumulator.BITS).fill(-1);
  private readonly sums = new Float64Array(2 ** Accumulator.BITS);
  /** Slots in use, in the order first met. */
  private readonly used = new Int32Array(2 ** Accumulator.BITS);
  private readonly mask = 2 ** Accumulator.BITS - 1;
  size = 0;

  clear(): void {
    for (let i = 0; i < this.size; i++) this.keys[this.used[i]!] = -1;
    this.size = 0;
  }

  add(key: number, x: number): void {
    // A key (vno * 2^20 + scene + 1, term-lists.ts) is below 2^53: its low and high 32 bits mixed.
    const h = Math.imul(key | 0, 0x9e3779b1) ^ Math.imul((key / 4_294_967_296) | 0, 0x85ebca77);
    let i = h >>> (32 - Accumulator.BITS);
    for (;;) {
      const at = this.keys[i]!;
      if (at === key) {
        this.sums[i] = this.sums[i]! + x;
        return;
      }
      if (at === -1) {
        this.keys[i] = key;
        this.sums[i] = x;
        this.used[this.size++] = i;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  key(n: number): number {
    return this.keys[this.used[n]!]!;
  }

  sum(n: number): number {
    return this.sums[this.used[n]!]!;
  }
}

const accumulator = new Accumulator();

/** Calls `emit` once for every document of the lists with its whole score, a range at a time. */
export function addUp(
  lists: readonly WeightedList[],
  emit: (key: number, score: number) => void,
): void {
  const acc = accumulator;
  const pos = lists.map(() => 0);
  const ends = lists.map(() => 0);
  let step = Accumulator.CAPACITY;
  for (;;) {
    // The range ends where the longest list left has `step` more postings.
    let longest = -1;
    for (let i = 0; i < lists.length; i++) {
      const left = lists[i]!.length - pos[i]!;
      if (left > 0 && (longest < 0 || left > lists[longest]!.length - pos[longest]!)) longest = i;
    }
    if (longest < 0) return;
    const l = lists[longest]!;
    const end = pos[longest]! + step < l.length ? l.keys[pos[longest]! + step]! : Infinity;
    let count = 0;
    for (let i = 0; i < lists.length; i++) {
      const m = lists[i]!;
      ends[i] = end === Infinity ? m.length : seek(m.keys, m.length, pos[i]!, end);
      count += ends[i]! - pos[i]!;
    }
    if (count > Accumulator.CAPACITY && step > 1) {
      step >>= 1;
      continue;
    }
    acc.clear();
    for (let i = 0; i < lists.length; i++) {
      const { keys, impacts, cap, weight } = lists[i]!;
      for (let p = pos[i]!, e = ends[i]!; p < e; p++) {
        const x = impacts[p]!;
        if (x <= cap) acc.add(keys[p]!, weight * x);
      }
      pos[i] = ends[i]!;
    }
    for (let n = 0; n < acc.size; n++) emit(acc.key(n), acc.sum(n));
    step = Accumulator.CAPACITY;
  }
}
