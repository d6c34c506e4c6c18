// Where the descriptor looks (face-descriptor.ts), in the picture's pixels, so that one face gets
// the same squares however the picture shows it: large or small, in the middle of a frame or cut
// by a photo's edge (issue 43, docs/decisions/face-at-any-size.md). Pure geometry.

export interface Square {
  x: number;
  y: number;
  side: number;
}

export interface Pt {
  x: number;
  y: number;
}

/** The landmark square's side against the longer side of the face mesh's extent. */
export const LANDMARK_AROUND = 1.3;

/**
 * The square the 68-landmark net looks at: around the face mesh (Human's 468 points), whose
 * extent follows the face, not the picture. Human's box is cut at the picture's edge, so a photo
 * that the face fills would be looked at off centre. Without a mesh, the box's own square.
 */
export function landmarkSquare(
  mesh: readonly (readonly (number | undefined)[])[] | undefined,
  [x, y, w, h]: readonly number[],
): Square {
  if (!mesh || mesh.length === 0) {
    const side = Math.max(w!, h!);
    return { x: x! + w! / 2 - side / 2, y: y! + h! / 2 - side / 2, side };
  }
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [px, py] of mesh) {
    x0 = Math.min(x0, px!);
    x1 = Math.max(x1, px!);
    y0 = Math.min(y0, py!);
    y1 = Math.max(y1, py!);
  }
  const side = Math.max(x1 - x0, y1 - y0) * LANDMARK_AROUND;
  return { x: (x0 + x1) / 2 - side / 2, y: (y0 + y1) / 2 - side / 2, side };
}

const mean = (points: readonly Pt[]): Pt => ({
  x: points.reduce((s, p) => s + p.x, 0) / points.length,
  y: points.reduce((s, p) => s + p.y, 0) / points.length,
});

/**
 * dlib's face square from 68 landmarks (face-api's alignDlib: size from the eyes' distance to the
 * mouth, placed on the centre of eyes and mouth), left where it falls: face-api moves it inside
 * the landmark crop, which shifts a face cut by an edge against the same face uncut.
 */
export function dlibSquare(marks: readonly Pt[]): Square {
  const left = mean(marks.slice(36, 42));
  const right = mean(marks.slice(42, 48));
  const mouth = mean(marks.slice(48, 68));
  const toMouth = (p: Pt): number => Math.hypot(mouth.x - p.x, mouth.y - p.y);
  const side = (toMouth(left) + toMouth(right)) / 2 / 0.45;
  const centre = mean([left, right, mouth]);
  return { x: centre.x - 0.5 * side, y: centre.y - 0.43 * side, side };
}
