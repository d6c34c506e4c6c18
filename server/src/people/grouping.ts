// The rules that group faces into people (issue 30, docs/decisions/people-groups.md). Pure, so the
// pipeline (server/src/people/assign.ts) and the quality bench apply the same rules. Precision comes
// first: a face joins a group only when it is close to enough of its members (no single-link
// chaining), two named people are never joined, and a face rejected for a person never goes back.
import { FACE_SAME_DISTANCE, faceDistance } from '../perception/face-match.ts';

export interface GroupingOptions {
  /** Euclidean distance at or under which two faces are taken as the same person. */
  distance?: number;
  /** A face needs this many close members of a group (or half of a smaller group) to join it. */
  quorum?: number;
  /**
   * Two named people within this of each other's mean distance: the face is too ambiguous to name
   * either of them.
   */
  margin?: number;
}

export const GROUPING_DEFAULTS = { distance: FACE_SAME_DISTANCE, quorum: 3, margin: 0.05 };

function settings(opts: GroupingOptions | undefined): Required<GroupingOptions> {
  return { ...GROUPING_DEFAULTS, ...opts };
}

export interface FaceVector<Id = number> {
  id: Id;
  descriptor: readonly number[];
}

/**
 * Groups faces by average linkage: two groups join while the mean distance over every pair of
 * their faces is within the distance. Unlike single linkage, one look-alike pair cannot chain two
 * people together. Groups come biggest first; each group keeps the faces' input order.
 * O(n²) memory and about O(n²) time: meant for a few thousand faces (the quality bench, a
 * regrouping), not for the whole archive, which assignFace handles face by face.
 */
export function clusterFaces<Id>(
  faces: readonly FaceVector<Id>[],
  opts?: GroupingOptions,
): FaceVector<Id>[][] {
  const { distance } = settings(opts);
  const n = faces.length;
  // Mean pairwise distance between live clusters, kept up to date by the Lance-Williams update.
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const v = faceDistance(faces[i]!.descriptor, faces[j]!.descriptor);
      d[i * n + j] = v;
      d[j * n + i] = v;
    }
  const members: number[][] = faces.map((_, i) => [i]);
  const alive = new Array<boolean>(n).fill(true);
  // Each live cluster's nearest live neighbour, so a step scans n entries, not n².
  const nearest = new Int32Array(n).fill(-1);
  const refresh = (i: number): void => {
    let best = -1;
    for (let j = 0; j < n; j++)
      if (j !== i && alive[j] && (best < 0 || d[i * n + j]! < d[i * n + best]!)) best = j;
    nearest[i] = best;
  };
  for (let i = 0; i < n; i++) refresh(i);
  for (;;) {
    let a = -1;
    for (let i = 0; i < n; i++)
      if (
        alive[i] &&
        nearest[i]! >= 0 &&
        (a < 0 || d[i * n + nearest[i]!]! < d[a * n + nearest[a]!]!)
      )
        a = i;
    if (a < 0) break;
    const b = nearest[a]!;
    if (d[a * n + b]! > distance) break;
    const sa = members[a]!.length;
    const sb = members[b]!.length;
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === a || k === b) continue;
      const v = (sa * d[a * n + k]! + sb * d[b * n + k]!) / (sa + sb);
      d[a * n + k] = v;
      d[k * n + a] = v;
    }
    members[a] = members[a]!.concat(members[b]!);
    members[b] = [];
    alive[b] = false;
    for (let k = 0; k < n; k++)
      if (alive[k] && (k === a || nearest[k] === a || nearest[k] === b)) refresh(k);
      else if (alive[k] && d[k * n + a]! < d[k * n + nearest[k]!]!) nearest[k] = a;
  }
  return members
    .filter((m, i) => alive[i] && m.length > 0)
    .map((m) => m.sort((x, y) => x - y).map((i) => faces[i]!))
    .sort((x, y) => y.length - x.length);
}

/** A face of the archive near the face being assigned, and the person (or group) it belongs to. */
export interface Neighbour<P = string> {
  person: P;
  distance: number;
}

export interface PersonInfo {
  named: boolean;
  /** Faces (and reference pictures) the person has. */
  size: number;
}

export type Assignment<P = string> =
  | { kind: 'person'; person: P; distance: number; alsoClose: P[] }
  | { kind: 'none'; alsoClose: P[] };

/** How many close members a group of this size needs before a face may join it. */
export function required(size: number, quorum = GROUPING_DEFAULTS.quorum): number {
  return Math.max(1, Math.min(quorum, Math.ceil(size / 2)));
}

/**
 * Where one face goes, from its nearest faces in the archive (any number, any order): to the
 * person whose faces within the distance are enough of them (see required) and closest on
 * average. Never to a person it was rejected for. When two named people both qualify within
 * the margin it is named neither ('none': the caller starts a group of its own). alsoClose lists
 * the other people that qualified: candidates for joining with the chosen one.
 */
export function assignFace<P>(
  neighbours: readonly Neighbour<P>[],
  people: ReadonlyMap<P, PersonInfo>,
  rejected: ReadonlySet<P>,
  opts?: GroupingOptions,
): Assignment<P> {
  const { distance, quorum, margin } = settings(opts);
  const close = new Map<P, { count: number; sum: number }>();
  for (const n of neighbours) {
    if (n.distance > distance || rejected.has(n.person) || !people.has(n.person)) continue;
    const c = close.get(n.person) ?? { count: 0, sum: 0 };
    c.count++;
    c.sum += n.distance;
    close.set(n.person, c);
  }
  const qualified = [...close.entries()]
    .filter(([p, c]) => c.count >= required(people.get(p)!.size, quorum))
    .map(([person, c]) => ({ person, mean: c.sum / c.count, named: people.get(person)!.named }))
    .sort((x, y) => x.mean - y.mean);
  const [best, ...rest] = qualified;
  if (!best) return { kind: 'none', alsoClose: [] };
  const alsoClose = rest.map((q) => q.person);
  const rival = rest.find((q) => q.named && q.mean - best.mean < margin);
  if (best.named && rival) return { kind: 'none', alsoClose: [] };
  return { kind: 'person', person: best.person, distance: best.mean, alsoClose };
}

export interface GroupSample {
  named: boolean;
  /** Some of the group's face descriptors (all of a small group, a sample of a big one). */
  descriptors: readonly (readonly number[])[];
}

/** Mean distance over every pair of faces across the two samples (average linkage). */
export function groupDistance(a: GroupSample, b: GroupSample): number {
  let sum = 0;
  for (const x of a.descriptors) for (const y of b.descriptors) sum += faceDistance(x, y);
  const pairs = a.descriptors.length * b.descriptors.length;
  return pairs > 0 ? sum / pairs : Infinity;
}

/**
 * Whether two groups are one person: close by average linkage, at most one of them named, and no
 * face of either rejected for the other (rejectedAcross, from the stored rejections).
 */
export function shouldJoin(
  a: GroupSample,
  b: GroupSample,
  rejectedAcross: boolean,
  opts?: GroupingOptions,
): boolean {
  if (rejectedAcross || (a.named && b.named)) return false;
  return groupDistance(a, b) <= settings(opts).distance;
}

/** Which of two groups to join keeps its id: the named one, else the bigger one. */
export function joinTarget<T extends { named: boolean; size: number }>(
  a: T,
  b: T,
): [into: T, from: T] {
  if (a.named !== b.named) return a.named ? [a, b] : [b, a];
  return a.size >= b.size ? [a, b] : [b, a];
}
