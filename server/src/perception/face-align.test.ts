// Where the descriptor looks: the same squares for one face whether a photo's edge cuts it or a
// video frame shows it whole around it (issue 43).
import { expect, it } from 'vitest';
import { dlibSquare, LANDMARK_AROUND, landmarkSquare, type Pt } from './face-align.ts';

/** 68 landmarks with the eyes' centres at (40, 10) and (80, 10), the mouth's at (60, 55). */
function marks(dx = 0, dy = 0): Pt[] {
  const at = (x: number, y: number): Pt => ({ x: x + dx, y: y + dy });
  return [
    ...Array.from({ length: 36 }, () => at(60, 30)),
    ...Array.from({ length: 6 }, () => at(40, 10)),
    ...Array.from({ length: 6 }, () => at(80, 10)),
    ...Array.from({ length: 20 }, () => at(60, 55)),
  ];
}

it('places dlib’s square on the eyes and mouth, beyond the picture’s edge when the face is cut', () => {
  const whole = dlibSquare(marks(100, 100));
  // The eyes 49.24 px from the mouth: a square of 49.24 / 0.45, its top 0.43 of it above their
  // centre (25 px under the eyes).
  expect(whole.side).toBeCloseTo(109.43, 2);
  expect(whole.y).toBeCloseTo(100 + 25 - 0.43 * whole.side, 5);
  // The same face at the top of a photo: the square keeps its place and size, above the edge.
  const cut = dlibSquare(marks());
  expect(cut.y).toBeLessThan(0);
  expect(cut.x + 100).toBeCloseTo(whole.x, 9);
  expect(cut.y + 100).toBeCloseTo(whole.y, 9);
  expect(cut.side).toBeCloseTo(whole.side, 9);
});

it('looks for landmarks around the face mesh, whatever the picture cut of the box', () => {
  const mesh = [
    [100, 50, 0],
    [200, 50, 0],
    [150, 170, 0],
  ];
  const side = 120 * LANDMARK_AROUND;
  const expected = { x: 150 - side / 2, y: 110 - side / 2, side };
  // Human's box, whole or cut by the top edge, does not move the square.
  expect(landmarkSquare(mesh, [80, 20, 140, 160])).toEqual(expected);
  expect(landmarkSquare(mesh, [80, 0, 140, 100])).toEqual(expected);
  // Without a mesh, the box's own square.
  expect(landmarkSquare(undefined, [10, 20, 100, 60])).toEqual({ x: 10, y: 0, side: 100 });
});
