// Faces and objects of every scene, from its stored frames. Frames are chosen to keep the pass
// inside the analysis budget: FIRST_LOOK frames per scene with the face models, the object model
// on the first and on the others only when the first showed an object; then, only where a face
// was seen, MORE_WITH_FACES frames more with the face models alone (a person turning towards
// the camera is matched better on more frames). ffmpeg decodes scene n + 1 while the models look
// at scene n.
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { decodeRgb } from '../analysis/local/ocr.ts';
import type { FaceFinding } from './detect.ts';
import { perceiveImage } from './thread.ts';

export interface PerceivedScene {
  /** Faces found, per frame looked at. */
  faces: FaceFinding[][];
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

async function decodeFrames(
  ffmpeg: string,
  paths: string[],
  signal?: AbortSignal,
): Promise<RgbImage[]> {
  return paths.length === 0 ? [] : decodeRgb(ffmpeg, paths, signal);
}

export async function perceiveScenes(
  scenes: readonly { framePaths: string[] }[],
  tools: { ffmpeg: string; signal?: AbortSignal },
): Promise<{ scenes: PerceivedScene[]; stats: PerceptionStats }> {
  const stats: PerceptionStats = { frames: 0, faceMs: 0, objectFrames: 0, objectMs: 0 };
  const firstPicks = scenes.map((s) => spreadFrames(s.framePaths.length, FIRST_LOOK));
  const decodeFirst = (i: number): Promise<RgbImage[]> =>
    decodeFrames(
      tools.ffmpeg,
      firstPicks[i]!.map((f) => scenes[i]!.framePaths[f]!),
      tools.signal,
    );
  const out: PerceivedScene[] = [];
  let next = scenes.length > 0 ? decodeFirst(0) : undefined;
  for (const [i, scene] of scenes.entries()) {
    const images = await next!;
    // Decode the next scene's frames while this one is looked at.
    next = i + 1 < scenes.length ? decodeFirst(i + 1) : undefined;
    next?.catch(() => undefined);
    const result: PerceivedScene = { faces: [], objects: {}, objectFrames: 0 };
    for (const [n, image] of images.entries()) {
      tools.signal?.throwIfAborted();
      // A label counts only when seen on every frame looked at (two), so once the first frame
      // shows nothing the object model is spared the others: the same labels, half the cost.
      const objects = n === 0 || Object.keys(result.objects).some((l) => !NOT_OBJECTS.has(l));
      const seen = await perceiveImage(image, { faces: true, objects });
      stats.frames++;
      stats.faceMs += seen.ms.face;
      stats.objectMs += seen.ms.object;
      result.faces.push(seen.faces);
      if (!objects) continue;
      stats.objectFrames++;
      result.objectFrames++;
      const best = new Map<string, number>();
      for (const o of seen.objects) {
        if (o.score >= OBJECT_MIN_SCORE)
          best.set(o.label, Math.max(best.get(o.label) ?? 0, o.score));
      }
      for (const [label, score] of best) {
        const entry = (result.objects[label] ??= { frames: 0, score: 0 });
        entry.frames++;
        entry.score = Math.max(entry.score, score);
      }
    }
    if (result.faces.some((f) => f.length > 0)) {
      const more = spreadFrames(scene.framePaths.length, MORE_WITH_FACES, firstPicks[i]);
      const extra = await decodeFrames(
        tools.ffmpeg,
        more.map((f) => scene.framePaths[f]!),
        tools.signal,
      );
      for (const image of extra) {
        const seen = await perceiveImage(image, { faces: true, objects: false });
        stats.frames++;
        stats.faceMs += seen.ms.face;
        result.faces.push(seen.faces);
      }
    }
    out.push(result);
  }
  return { scenes: out, stats };
}
