// Camera moves on the detector's coarse grids: how much of the change from one picture to another
// a shift or a zoom of the first explains (a pan or a zoom is no transition).
import type { Grid } from './grid.ts';

/**
 * Camera moves tried: shifts of up to a quarter of the width and of the height (8 and 4 blocks:
 * a quick pan over a sample, or over two pictures' worth when a reference-only decode had to take
 * the picture after the tick; 4 and 3 blocks let those through as cuts), and zooms.
 */
const SHIFTS: { zoom: number; dx: number; dy: number }[] = [];
for (const zoom of [1, 0.8, 0.9, 1.12, 1.25]) {
  for (let dy = -4; dy <= 4; dy++) {
    for (let dx = -8; dx <= 8; dx++) {
      if (zoom !== 1 && (Math.abs(dx) > 1 || Math.abs(dy) > 1)) continue;
      SHIFTS.push({ zoom, dx, dy });
    }
  }
}
// The smallest moves first: a still or slowly moving picture is matched at once, and the shifts
// after it are then given up early (see movedDist). The answer does not depend on the order.
SHIFTS.sort(
  (p, q) =>
    Math.abs(p.dx) + Math.abs(p.dy) - (Math.abs(q.dx) + Math.abs(q.dy)) ||
    Number(p.zoom !== 1) - Number(q.zoom !== 1),
);

/**
 * A move on a grid of w x h blocks: the blocks of b it compares (rows ys, columns xs, increasing)
 * with the blocks of a they came from (rows sys, columns sxs), and how many values that is.
 */
interface ShiftMap {
  ys: Int32Array;
  sys: Int32Array;
  xs: Int32Array;
  sxs: Int32Array;
  count: number;
}

/** The moves of SHIFTS laid out for one grid size (made once per size). */
const shiftMaps = new Map<string, ShiftMap[]>();

/** The positions along one axis of n samples that a move (zoom about c, then shift d) keeps in
 *  the picture, and the position each one comes from. */
function shiftedAxis(n: number, c: number, zoom: number, d: number): [number[], number[]] {
  const at: number[] = [];
  const from: number[] = [];
  for (let i = 0; i < n; i++) {
    const src = Math.round(c + (i - c) * zoom + d);
    if (src < 0 || src >= n) continue;
    at.push(i);
    from.push(src);
  }
  return [at, from];
}

function shiftMapsFor(w: number, h: number): ShiftMap[] {
  const key = `${w}x${h}`;
  const known = shiftMaps.get(key);
  if (known) return known;
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  const maps: ShiftMap[] = [];
  for (const { zoom, dx, dy } of SHIFTS) {
    const [ys, sys] = shiftedAxis(h, cy, zoom, dy);
    const [xs, sxs] = shiftedAxis(w, cx, zoom, dx);
    const count = ys.length * xs.length * 3;
    // A shift that leaves less than half the picture overlapping proves nothing.
    if (count <= (w * h * 3) / 2) continue;
    maps.push({
      ys: Int32Array.from(ys),
      sys: Int32Array.from(sys),
      xs: Int32Array.from(xs),
      sxs: Int32Array.from(sxs),
      count,
    });
  }
  shiftMaps.set(key, maps);
  return maps;
}

/**
 * The smallest difference between b and a shifted or zoomed copy of a (about the centre): what
 * is left of the change from a to b once a camera move has been allowed for. With `enough`, only
 * whether that is below `enough` is answered: the first move found below it is returned, and
 * otherwise some value not below it (a move is given up once its sum so far reaches it).
 */
export function movedDist(a: Grid, b: Grid, w: number, h: number, enough = 0): number {
  let best = Infinity;
  for (const { ys, sys, xs, sxs, count } of shiftMapsFor(w, h)) {
    // A move is given up once its partial mean reaches what it must beat: the terms are not
    // negative, so its whole mean could not be below it (sums of floats only grow too).
    const bound = enough > 0 ? enough : best;
    let sum = 0;
    let row = 0;
    for (; row < ys.length; row++) {
      const pRow = ys[row]! * w;
      const qRow = sys[row]! * w;
      for (let k = 0; k < xs.length; k++) {
        const p = (pRow + xs[k]!) * 3;
        const q = (qRow + sxs[k]!) * 3;
        sum +=
          Math.abs(b[p]! - a[q]!) +
          Math.abs(b[p + 1]! - a[q + 1]!) +
          Math.abs(b[p + 2]! - a[q + 2]!);
      }
      if (sum / count >= bound) break;
    }
    if (row < ys.length) continue;
    best = Math.min(best, sum / count);
    if (best < enough) break;
  }
  return best;
}

/** Whether a camera move brings a at least halfway to b (a cross-fade does not do that). */
export function explainedByMotion(a: Grid, b: Grid, w: number, h: number, dab: number): boolean {
  return movedDist(a, b, w, h, 0.5 * dab) < 0.5 * dab;
}
