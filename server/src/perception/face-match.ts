// Who a face is: its embedding against the reference embeddings of the team's people. Pure
// functions, so the threshold calibrated in bench/face-match.ts is the one the pipeline uses.

/**
 * Cosine similarity at or above which two FaceRes embeddings are taken as the same person.
 * Calibrated for precision first (docs/decisions/face-match-threshold.md).
 */
export const FACE_MATCH_THRESHOLD = 0.7;

/**
 * Euclidean distance at or under which two ResNet-34 descriptors (128 numbers) are taken as the
 * same person (docs/decisions/face-descriptor.md).
 */
export const FACE_SAME_DISTANCE = 0.5;

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

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

export interface PersonReference {
  name: string;
  embedding: readonly number[];
}

export interface FaceMatch {
  name: string;
  similarity: number;
}

/**
 * The best-matching person at or above the threshold, else undefined. A name counts only when
 * no other person comes close (within MARGIN): two look-alikes mean we cannot tell.
 */
export function matchFace(
  embedding: readonly number[],
  people: readonly PersonReference[],
  threshold = FACE_MATCH_THRESHOLD,
): FaceMatch | undefined {
  if (embedding.length === 0) return undefined;
  const best = new Map<string, number>();
  for (const p of people) {
    const s = cosine(embedding, p.embedding);
    if (s > (best.get(p.name) ?? -1)) best.set(p.name, s);
  }
  const ranked = [...best.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || first[1] < threshold) return undefined;
  if (second && second[1] >= threshold && first[1] - second[1] < MARGIN) return undefined;
  return { name: first[0], similarity: first[1] };
}

const MARGIN = 0.05;

export interface SceneFaces {
  /** Faces found in each frame looked at. */
  frames: { embedding: readonly number[] }[][];
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
  threshold = FACE_MATCH_THRESHOLD,
): ScenePeople {
  const named = new Map<string, number>();
  let unnamed = 0;
  for (const faces of scene.frames) {
    const here = new Set<string>();
    let strangers = 0;
    for (const face of faces) {
      const m = matchFace(face.embedding, people, threshold);
      if (!m || here.has(m.name)) {
        if (!m) strangers++;
        continue;
      }
      here.add(m.name);
      named.set(m.name, Math.max(named.get(m.name) ?? 0, m.similarity));
    }
    unnamed = Math.max(unnamed, strangers);
  }
  return {
    named: [...named.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([name, similarity]) => ({ name, similarity })),
    unnamed,
  };
}

export interface FaceGroup {
  /** The face of the group with the best detector score. */
  embedding: readonly number[];
  match: FaceMatch | undefined;
}

/**
 * The distinct faces of a scene: faces of several frames that look alike (at the match
 * threshold) are one face, named after the best match of any of its pictures.
 */
export function groupFaces(
  frames: readonly { embedding: readonly number[]; score: number }[][],
  people: readonly PersonReference[],
  threshold = FACE_MATCH_THRESHOLD,
): FaceGroup[] {
  const groups: (FaceGroup & { score: number })[] = [];
  for (const face of frames.flat()) {
    if (face.embedding.length === 0) continue;
    const match = matchFace(face.embedding, people, threshold);
    const group = groups.find((g) => cosine(g.embedding, face.embedding) >= threshold);
    if (!group) {
      groups.push({ embedding: face.embedding, match, score: face.score });
      continue;
    }
    if (match && (!group.match || match.similarity > group.match.similarity)) group.match = match;
    if (face.score > group.score)
      Object.assign(group, { embedding: face.embedding, score: face.score });
  }
  return groups.map(({ embedding, match }) => ({ embedding, match }));
}
