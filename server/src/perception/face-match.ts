// Who a face is: its descriptor against the reference descriptors of the team's people. Pure
// functions, so the threshold calibrated in bench/face-match.ts is the one the pipeline uses.

/**
 * Euclidean distance at or under which two ResNet-34 descriptors (128 numbers) are taken as the
 * same person (docs/decisions/face-descriptor.md).
 */
export const FACE_SAME_DISTANCE = 0.5;

/**
 * A name counts only when no other person comes this much closer to the best (look-alikes:
 * we cannot tell). Measured in bench/face-match.ts (docs/decisions/face-descriptor.md).
 */
export const MARGIN = 0.05;

/** Euclidean distance between two descriptors; Infinity when their lengths differ (never compared). */
export function faceDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

export interface PersonReference {
  name: string;
  descriptor: readonly number[];
}

export interface FaceMatch {
  name: string;
  distance: number;
}

/**
 * The closest person at or under the threshold, else undefined. A name counts only when no
 * other person within the threshold comes within the margin of it.
 */
export function matchFace(
  descriptor: readonly number[],
  people: readonly PersonReference[],
  threshold = FACE_SAME_DISTANCE,
  margin = MARGIN,
): FaceMatch | undefined {
  if (descriptor.length === 0) return undefined;
  const best = new Map<string, number>();
  for (const p of people) {
    const d = faceDistance(descriptor, p.descriptor);
    if (d < (best.get(p.name) ?? Infinity)) best.set(p.name, d);
  }
  const ranked = [...best.entries()].sort((a, b) => a[1] - b[1]);
  const [first, second] = ranked;
  if (!first || first[1] > threshold) return undefined;
  if (second && second[1] <= threshold && second[1] - first[1] < margin) return undefined;
  return { name: first[0], distance: first[1] };
}

export interface SceneFaces {
  /** Faces found in each frame looked at. */
  frames: { descriptor: readonly number[] }[][];
}

export interface ScenePeople {
  /** People recognised, best match first. */
  named: FaceMatch[];
  /** Faces seen that match no one: the most seen together in one frame, less those named there. */
  unnamed: number;
}

/** Who is in a scene, from the faces of its frames. */
export function scenePeople(
  scene: SceneFaces,
  people: readonly PersonReference[],
  threshold = FACE_SAME_DISTANCE,
): ScenePeople {
  const named = new Map<string, number>();
  let unnamed = 0;
  for (const faces of scene.frames) {
    const here = new Set<string>();
    let strangers = 0;
    for (const face of faces) {
      const m = matchFace(face.descriptor, people, threshold);
      if (!m || here.has(m.name)) {
        if (!m) strangers++;
        continue;
      }
      here.add(m.name);
      named.set(m.name, Math.min(named.get(m.name) ?? Infinity, m.distance));
    }
    unnamed = Math.max(unnamed, strangers);
  }
  return {
    named: [...named.entries()]
      .sort((a, b) => a[1] - b[1])
      .map(([name, distance]) => ({ name, distance })),
    unnamed,
  };
}

export interface GroupedFace<F> {
  /**
   * The picture of the face kept (its descriptor is the one stored and assigned), as the caller
   * gave it: the one closest to the person it is named after, else the best detector score.
   */
  face: F;
  match: FaceMatch | undefined;
}

/**
 * The distinct faces of a scene: faces of several frames that look alike (within the same-person
 * distance of the group's kept picture) are one face, named after the best match of any of its
 * pictures, and that picture is the one kept: the people's assignment (people/assign.ts) reads
 * the kept descriptor, so a face named on one frame of a scene is not stored with another frame's
 * descriptor beyond the distance (a small face 0.47 from its person on one frame, 0.52 on the
 * frame the detector scored best, issue 43). Faces without a descriptor (too small to describe)
 * are left out.
 */
export function groupFaces<F extends { descriptor: readonly number[]; score: number }>(
  frames: readonly (readonly F[])[],
  people: readonly PersonReference[],
  threshold = FACE_SAME_DISTANCE,
): GroupedFace<F>[] {
  const groups: GroupedFace<F>[] = [];
  for (const face of frames.flat()) {
    if (face.descriptor.length === 0) continue;
    const match = matchFace(face.descriptor, people, threshold);
    let group: GroupedFace<F> | undefined;
    let nearest = Infinity;
    for (const g of groups) {
      const d = faceDistance(g.face.descriptor, face.descriptor);
      if (d <= threshold && d < nearest) [group, nearest] = [g, d];
    }
    if (!group) {
      groups.push({ face, match });
      continue;
    }
    if (match && (!group.match || match.distance < group.match.distance)) {
      group.match = match;
      group.face = face;
    } else if (!group.match && face.score > group.face.score) group.face = face;
  }
  return groups;
}
