// Archives analysed before the descriptor switch (docs/decisions/face-descriptor.md) hold FaceRes
// embeddings, which are never compared with the new descriptors: their faces would stay out of
// the People pages. This job describes one such video's faces again from what the analysis
// stored (the scenes' frame-NN.jpg and the people images), exactly as an analysis would, then
// has the team's people assigned to them. At start each worker queues it for every such video;
// the queue keeps one job per video however many workers do so, and a video with nothing left
// to recompute is done at once, so running it twice changes nothing.
import type { AppContext } from '../context.ts';
import { enqueue } from '../jobs/queue.ts';
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { resolveMediaTools } from '../media/tools.ts';
import { perceiveScenes } from '../perception/perceive-scenes.ts';
import { scenesOf } from '../pipeline/video-store.ts';
import { describePeopleImages, storeSceneFaces, type FaceWork } from './scene-faces.ts';

/** A video whose faces (of its scenes or people images) still carry only the old embedding. */
const OLD_FACES = `(EXISTS (SELECT 1 FROM scene_faces f WHERE f.video_id = v.id AND f.descriptor IS NULL)
  OR EXISTS (SELECT 1 FROM video_people p WHERE p.video_id = v.id
             AND p.face_embedding IS NOT NULL AND p.descriptor IS NULL))`;

/**
 * Queues the recompute of every analysed video with old faces (one job per video across every
 * worker); answers how many were queued now.
 */
export async function queueFaceRecompute(ctx: AppContext): Promise<number> {
  const videos = await ctx.db.query<{ id: string }>(
    `SELECT v.id FROM videos v WHERE v.status = 'completed' AND ${OLD_FACES} ORDER BY v.created_at`,
  );
  let queued = 0;
  for (const { id } of videos) {
    if (await enqueue(ctx, JobName.RecomputeFaces, id)) queued++;
  }
  return queued;
}

/** Describes the video's faces again, if any still need it. */
export async function recomputeVideoFaces(
  ctx: AppContext,
  videoId: string,
  signal: AbortSignal,
): Promise<boolean> {
  // A video analysed since (or being analysed: not completed) gets its faces from the analysis.
  const [due] = await ctx.db.query<{ id: string }>(
    `SELECT v.id FROM videos v WHERE v.id = $1 AND v.status = 'completed' AND ${OLD_FACES}`,
    [videoId],
  );
  if (!due) return false;
  const held: { release(): Promise<void> }[] = [];
  const w: FaceWork = {
    ctx,
    ffmpeg: resolveMediaTools(ctx.config).ffmpeg,
    videoId,
    signal,
    async localFile(key) {
      const local = await ctx.storage.localPath(key);
      held.push(local);
      return local.path;
    },
  };
  try {
    await describePeopleImages(w, true);
    // Faces were found only in these scenes (the detector is the one the analysis ran).
    const withFaces = new Set(
      (
        await ctx.db.query<{ scene_idx: number }>(
          'SELECT DISTINCT scene_idx FROM scene_faces WHERE video_id = $1',
          [videoId],
        )
      ).map((r) => r.scene_idx),
    );
    const scenes: { idx: number; framePaths: string[] }[] = [];
    for (const scene of await scenesOf(ctx.db, videoId)) {
      if (!withFaces.has(scene.idx)) continue;
      const framePaths: string[] = [];
      for (const key of scene.frames) framePaths.push(await w.localFile(key));
      scenes.push({ idx: scene.idx, framePaths });
    }
    const seen = await perceiveScenes(scenes, { signal, objects: false });
    await storeSceneFaces(w, scenes, seen.scenes);
    return true;
  } finally {
    for (const h of held) await h.release().catch(() => undefined);
  }
}

export const recomputeFacesHandler: JobHandler = {
  name: JobName.RecomputeFaces,
  run: async (ctx, job, signal) => {
    if (job.video_id) await recomputeVideoFaces(ctx, job.video_id, signal);
  },
};
