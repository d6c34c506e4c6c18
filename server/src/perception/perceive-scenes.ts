// Faces and objects of every scene, from its stored frames. Frames are chosen to keep the pass
// inside the analysis budget: FIRST_LOOK frames per scene with the face models, the object model
// on the first and on the others only when the first showed an object; then, only where a face
// was seen, MORE_WITH_FACES frames more with the face models alone (a person turning towards
// the camera is matched better on more frames).
import type { FaceFinding, Perception, PerceiveWhat } from './detect.ts';
import { perceiveFile } from './thread.ts';

export interface PerceivedScene {
  /** Faces found, per frame looked at. */
  faces: FaceFinding[][];
  /** Which of the scene's frames each entry of `faces` was found on (its index in the scene). */
  faceFrames: number[];
  /** Per COCO label: on how many frames it was seen confidently, and its best score. */
  objects: Record<string, { frames: number; score: number }>;
  /** Frames the object model looked at. */
  objectFrames: number;
}

export interface PerceptionStats {
  frames: number;
  faceMs: number;
  objectFrames: number;
  objectMs: number;
}

/** Adds `more` to `into`. */
export function addStats(into: PerceptionStats, more: PerceptionStats): void {
  into.frames += more.frames;
  into.faceMs += more.faceMs;
  into.objectFrames += more.objectFrames;
  into.objectMs += more.objectMs;
}

export const FIRST_LOOK = 2;
export const MORE_WITH_FACES = 2;
/** People are counted from faces, not from the object model's boxes. */
export const NOT_OBJECTS: ReadonlySet<string> = new Set(['person']);
/** An object below this score is not counted on a frame. */
export const OBJECT_MIN_SCORE = 0.45;

/** `count` frame indexes among `total`, evenly spread away from the edges, skipping `taken`. */
export function spreadFrames(
  total: number,
  count: number,
  taken: readonly number[] = [],
): number[] {
  const free = Array.from({ length: total }, (_, i) => i).filter((i) => !taken.includes(i));
  if (free.length <= count) return free;
  return Array.from(
    { length: count },
    (_, i) => free[Math.floor(((i + 0.5) * free.length) / count)]!,
  );
}

export async function perceiveScenes(
  scenes: readonly { framePaths: string[] }[],
  tools: {
    signal?: AbortSignal;
    /** Called once the models have their first frame (the caller starts other work then). */
    onFirstLook?: () => void;
    /** False: faces only (the recompute of stored faces has its objects already). */
    objects?: boolean;
  },
): Promise<{ scenes: PerceivedScene[]; stats: PerceptionStats }> {
  const stats: PerceptionStats = { frames: 0, faceMs: 0, objectFrames: 0, objectMs: 0 };
  const out: PerceivedScene[] = [];
  for (const scene of scenes) {
    const first = spreadFrames(scene.framePaths.length, FIRST_LOOK);
    const more = spreadFrames(scene.framePaths.length, MORE_WITH_FACES, first);
    const looking = perceiveScene(scene.framePaths, first, more, stats, tools);
    if (out.length === 0) tools.onFirstLook?.();
    out.push(await looking);
  }
  return { scenes: out, stats };
}

/** One frame looked at; its image is decoded in the models' thread, when it is needed. */
async function look(file: string, what: PerceiveWhat, signal?: AbortSignal): Promise<Perception> {
  signal?.throwIfAborted();
  return perceiveFile(file, what);
}

async function perceiveScene(
  paths: readonly string[],
  first: readonly number[],
  extra: readonly number[],
  stats: PerceptionStats,
  tools: { signal?: AbortSignal; objects?: boolean },
): Promise<PerceivedScene> {
  const result: PerceivedScene = { faces: [], faceFrames: [], objects: {}, objectFrames: 0 };
  for (const [n, frame] of first.entries()) {
    const file = paths[frame]!;
    // A label counts only when seen on every frame looked at (two), so once the first frame
    // shows nothing the object model is spared the others: the same labels, half the cost.
    const objects =
      tools.objects !== false &&
      (n === 0 || Object.keys(result.objects).some((l) => !NOT_OBJECTS.has(l)));
    const seen = await look(file, { faces: true, objects }, tools.signal);
    stats.frames++;
    stats.faceMs += seen.ms.face;
    stats.objectMs += seen.ms.object;
    result.faces.push(seen.faces);
    result.faceFrames.push(frame);
    if (!objects) continue;
    stats.objectFrames++;
    result.objectFrames++;
    const best = new Map<string, number>();
    for (const o of seen.objects) {
      if (o.score >= OBJECT_MIN_SCORE) best.set(o.label, Math.max(best.get(o.label) ?? 0, o.score));
    }
    for (const [label, score] of best) {
      const entry = (result.objects[label] ??= { frames: 0, score: 0 });
      entry.frames++;
      entry.score = Math.max(entry.score, score);
    }
  }
  // Only where a face was seen are the face frames decoded and looked at.
  if (result.faces.some((f) => f.length > 0)) {
    for (const frame of extra) {
      const seen = await look(paths[frame]!, { faces: true, objects: false }, tools.signal);
      stats.frames++;
      stats.faceMs += seen.ms.face;
      result.faces.push(seen.faces);
      result.faceFrames.push(frame);
    }
  }
  return result;
}
