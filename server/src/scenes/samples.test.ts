// The detector's recent samples: a camera-move question asked again about the same pair.
import { describe, expect, it } from 'vitest';
import { movedDist } from './signals/camera-move.ts';
import { GRID_H, GRID_W, RecentSamples } from './samples.ts';

describe('RecentSamples.movedBelow', () => {
  it('answers a pair asked again at other limits as movedDist does each time', () => {
    const width = 64;
    const height = 36;
    let seed = 3;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    // A picture panning one pixel a sample, with some noise, then a new one.
    const base = Uint8Array.from({ length: (width + 8) * height * 3 }, () => random() * 255);
    const frame = (i: number): Uint8Array => {
      const f = new Uint8Array(width * height * 3);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          for (let k = 0; k < 3; k++) {
            const v = i < 4 ? base[(y * (width + 8) + x + i) * 3 + k]! : random() * 255;
            f[(y * width + x) * 3 + k] = Math.min(255, v + random() * 8);
          }
        }
      }
      return f;
    };
    const samples = new RecentSamples(width, height, 8);
    for (let i = 0; i < 6; i++) samples.push(frame(i));
    for (let i = 1; i < 6; i++) {
      const a = samples.grid(i - 1)!;
      const b = samples.grid(i)!;
      const exact = movedDist(a, b, GRID_W, GRID_H);
      // Limits around the answer, in an order that lets earlier answers decide later ones.
      for (const limit of [0.2, exact * 1.01, 0.01, exact * 0.99, exact, 0.5, exact * 1.5, 0]) {
        expect(samples.movedBelow(i, limit)).toBe(exact < limit);
      }
    }
    // Pairs no longer in the ring are not answered.
    for (let i = 6; i < 14; i++) samples.push(frame(i));
    expect(samples.movedBelow(5, 1)).toBe(false);
  });
});
