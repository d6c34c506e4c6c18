// Which stored frames of a scene the perception pass looks at: a few spread away from the edges
// first, then others (for faces) that were not looked at yet.
import { expect, it } from 'vitest';
import { FIRST_LOOK, MORE_WITH_FACES, spreadFrames } from './perceive-scenes.ts';

it('spreads the first look away from the edges, and the face frames between the others', () => {
  const first = spreadFrames(12, FIRST_LOOK);
  expect(first).toEqual([3, 9]);
  expect(spreadFrames(12, MORE_WITH_FACES, first)).toEqual([2, 8]);
  // Few frames: all of them, none twice.
  expect(spreadFrames(2, FIRST_LOOK)).toEqual([0, 1]);
  expect(spreadFrames(2, MORE_WITH_FACES, [0, 1])).toEqual([]);
  expect(spreadFrames(0, FIRST_LOOK)).toEqual([]);
});
