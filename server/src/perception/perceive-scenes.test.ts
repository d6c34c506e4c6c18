// How the perception pass groups the frames it decodes: whole scenes, several to an ffmpeg run.
import { describe, expect, it } from 'vitest';
import { decodeRuns, FIRST_LOOK, MORE_WITH_FACES, spreadFrames } from './perceive-scenes.ts';

const plan = (frames: number): { first: number[]; more: number[] } => {
  const first = spreadFrames(frames, FIRST_LOOK);
  return { first, more: spreadFrames(frames, MORE_WITH_FACES, first) };
};

describe('decode runs', () => {
  it('decodes the frames of several scenes with one ffmpeg run, never splitting a scene', () => {
    // The 120 s bench video: 12 scenes of 12 stored frames, 4 of them planned each.
    expect(decodeRuns(Array.from({ length: 12 }, () => plan(12)))).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
      [8, 9],
      [10, 11],
    ]);
    // Short scenes plan fewer frames and share a run; a scene too big for a run has its own.
    expect(decodeRuns([plan(1), plan(2), plan(12), plan(3)], 6)).toEqual([[0, 1], [2], [3]]);
    expect(decodeRuns([])).toEqual([]);
  });
});
