// The scene detector fed with synthetic 64x36 frames: the scene cap keeps the strongest cuts, and
// the boundaries it calls settled while the stream goes on are the ones it finally answers.
import { describe, expect, it } from 'vitest';
import { SceneDetector } from './scene-detector.ts';

const W = 64;
const H = 36;
const FPS = 10;

/** A frame of four vertical stripes in the given grey levels (0..255). */
function stripes(levels: number[]): Uint8Array {
  const frame = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = levels[Math.floor((x * levels.length) / W)]!;
      frame.fill(v, (y * W + x) * 3, (y * W + x) * 3 + 3);
    }
  }
  return frame;
}

describe('SceneDetector scene cap', () => {
  // Shots of 2 s; the first cut changes every stripe fully, the next strong ones a little less,
  // the weak ones (at 4 s and 8 s) half of the picture.
  const shots = [
    [20, 230, 20, 230],
    [230, 20, 230, 20],
    [230, 20, 120, 120],
    [20, 230, 20, 230],
    [20, 230, 130, 130],
    [230, 20, 230, 20],
  ];
  const run = (maxScenes?: number): number[] => {
    const d = new SceneDetector({ fps: FPS, width: W, height: H, minSceneMs: 1000, maxScenes });
    for (const levels of shots) for (let i = 0; i < 2 * FPS; i++) d.push(stripes(levels));
    return d.finish();
  };

  it('finds every cut without a cap', () => {
    expect(run()).toEqual([2000, 4000, 6000, 8000, 10000]);
  });

  it('keeps only the strongest boundaries, in time order, when capped', () => {
    expect(run(3)).toEqual([2000, 6000]);
  });
});

describe('SceneDetector settled boundaries', () => {
  /** A small deterministic generator (the same stream on every run). */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };

  /** Shots of 0.3 to 3 s (many closer than the minimum scene), some joined by fades to black. */
  function stream(seed: number): Uint8Array[] {
    const next = random(seed);
    const frames: Uint8Array[] = [];
    let levels = [128, 128, 128, 128];
    for (let shot = 0; shot < 14; shot++) {
      const fresh = levels.map(() => 20 + Math.floor(next() * 215));
      if (next() < 0.3) {
        // A fade out and in over 1 s.
        for (let k = 0; k < FPS; k++) {
          const gain = Math.abs(k - FPS / 2) / (FPS / 2);
          const from = k < FPS / 2 ? levels : fresh;
          frames.push(stripes(from.map((v) => Math.round(v * gain))));
        }
      }
      levels = fresh;
      const length = Math.round((0.3 + next() * 2.7) * FPS);
      for (let i = 0; i < length; i++) frames.push(stripes(levels));
    }
    return frames;
  }

  it('calls settled only boundaries that finish answers, and misses none before them', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const frames = stream(seed);
      const d = new SceneDetector({ fps: FPS, width: W, height: H, minSceneMs: 1000 });
      const seen: number[][] = [];
      for (const frame of frames) {
        d.push(frame);
        seen.push(d.settled());
      }
      const final = d.finish();
      expect(final.length, `seed ${seed}`).toBeGreaterThan(5);
      for (const settled of seen) {
        const last = settled.at(-1) ?? -1;
        expect(settled, `seed ${seed}`).toEqual(final.filter((ms) => ms <= last));
      }
      // Settling keeps up with the stream: all but the last few seconds are settled by the end.
      const atEnd = seen.at(-1)!;
      expect(atEnd.length, `seed ${seed}`).toBeGreaterThanOrEqual(final.length - 3);
    }
  });
});
