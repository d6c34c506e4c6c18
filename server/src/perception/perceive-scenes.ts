// Faces and objects of every scene, from its stored frames. Frames are chosen to keep the pass
// inside the analysis budget: FIRST_LOOK frames per scene with the face models, the object model
// on the first and on the others only when the first showed an object; then, only where a face
// was seen, MORE_WITH_FACES frames more with the face models alone (a person turning towards
// the camera is matched better on more frames). A small face is described again from the video
// at full size (source-look.ts).
import type { FaceFinding, Perception, PerceiveWhat } from './detect.ts';
import { sharpenSmallFaces, type SourceVideo } from './source-look.ts';
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
  /** Frames whose small faces were looked at in the video at full size, and the time it took. */
  sourceFrames: number;
  sourceMs: number;
}

export const noStats = (): PerceptionStats => ({
  frames: 0,
  faceMs: 0,
  objectFrames: 0,
  objectMs: 0,
  sourceFrames: 0,
  sourceMs: 0,
});

/** Adds `more` to `into`. */
export function addStats(into: PerceptionStats, more: PerceptionStats): void {
  into.frames += more.frames;
  into.faceMs += more.faceMs;
  into.objectFrames += more.objectFrames;
  into.objectMs += more.objectMs;
  into.sourceFrames += more.sourceFrames;
  into.sourceMs += more.sourceMs;
}

/** A scene's stored frames, and when each shows (ms from the video's first picture) if known. */
export interface SceneFrames {
  framePaths: readonly string[];
  frameMs?: readonly number[];
}

export interface PerceiveTools {
  signal?: AbortSignal;
  /** Called once the models have their first frame (the caller starts other work then). */
  onFirstLook?: () => void;
  /** False: faces only (the recompute of stored faces has its objects already). */
  objects?: boolean;
  /** The video, for small faces to be described at full size (none: from the frames alone). */
  source?: SourceVideo | Promise<SourceVideo | undefined>;
}

export const FIRST_LOOK = 2;
export const MORE_WITH_FACES = 2;
/**
 * Frames of a scene whose small faces are looked at in the video at full size (source-look.ts):
 * the first ones with a small face. The cost of a scene full of small faces stays bounded (a
 * look is a seek and a decode, then the face models on each small face); the names come from a
 * scene's best frame, and a face described at full size varies little from frame to frame.
 */
export const SOURCE_LOOKS = 2;
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
  scenes: readonly SceneFrames[],
  tools: PerceiveTools,
): Promise<{ scenes: PerceivedScene[]; stats: PerceptionStats }> {
  const stats = noStats();
  const out: PerceivedScene[] = [];
  for (const scene of scenes) {
    const first = spreadFrames(scene.framePaths.length, FIRST_LOOK);
    const more = spreadFrames(scene.framePaths.length, MORE_WITH_FACES, first);
    const looking = perceiveScene(scene, first, more, stats, tools);
    if (out.length === 0) tools.onFirstLook?.();
    out.push(await looking);
  }
  return { scenes: out, stats };
}

/**
 * Frame `n` of the scene looked at; its image is decoded in the models' thread, when it is
 * needed. Its small faces are described again from the video (source-look.ts).
 */
export async function lookAtFrame(
  scene: SceneFrames,
  n: number,
  what: PerceiveWhat,
  stats: PerceptionStats,
  tools: Pick<PerceiveTools, 'signal' | 'source'>,
): Promise<Perception> {
  tools.signal?.throwIfAborted();
  const seen = await perceiveFile(scene.framePaths[n]!, what);
  if (!what.faces || seen.faces.length === 0) return seen;
  const started = performance.now();
  const again = await sharpenSmallFaces(seen, scene.frameMs?.[n], await tools.source, tools.signal);
  if (!again.decoded) return seen;
  stats.sourceFrames++;
  stats.sourceMs += performance.now() - started;
  return { ...seen, faces: again.faces };
}

async function perceiveScene(
  scene: SceneFrames,
  first: readonly number[],
  extra: readonly number[],
  stats: PerceptionStats,
  tools: PerceiveTools,
): Promise<PerceivedScene> {
  const result: PerceivedScene = { faces: [], faceFrames: [], objects: {}, objectFrames: 0 };
  const looked = stats.sourceFrames;
  const within = (): PerceiveTools =>
    stats.sourceFrames - looked < SOURCE_LOOKS ? tools : { ...tools, source: undefined };
  for (const [n, frame] of first.entries()) {
    // A label counts only when seen on every frame looked at (two), so once the first frame
    // shows nothing the object model is spared the others: the same labels, half the cost.
    const objects =
      tools.objects !== false &&
      (n === 0 || Object.keys(result.objects).some((l) => !NOT_OBJECTS.has(l)));
    const seen = await lookAtFrame(scene, frame, { faces: true, objects }, stats, within());
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
      const seen = await lookAtFrame(
        scene,
        frame,
        { faces: true, objects: false },
        stats,
        within(),
      );
      stats.frames++;
      stats.faceMs += seen.ms.face;
      result.faces.push(seen.faces);
      result.faceFrames.push(frame);
    }
  }
  return result;
}
