// The scene detector fed with synthetic 64x36 frames: the scene cap keeps the strongest cuts.
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
