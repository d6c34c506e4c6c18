// Faces stored the older way are described again from what the analysis stored (the scenes'
// frame-NN.jpg, the video itself for small faces, and the people images), as an analysis would.
// Two cases (docs/decisions/face-recompute.md):
// - FaceRes embeddings of archives analysed before the descriptor switch (issue 30, migration
//   015): never compared with descriptors, and older than the People pages, so nobody corrected
//   them: the scenes' faces are looked for again and stored anew, then assigned.
// - Descriptors of an older version (descriptor-version.ts, migration 019): each face is
//   described again where it was seen (its frame and box) and keeps its row, so its person,
//   name, merges and "not this person" stay as people corrected them; faces without a person
//   are then assigned.
// At start each worker queues the job for every such video; the queue keeps one job per video
// however many workers do so, and a video with nothing left to do is done at once, so running it
// twice changes nothing.
import type { AppContext } from '../context.ts';
import { enqueue } from '../jobs/queue.ts';
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import type { VideoFormat } from '../media/args.ts';
import { videoFormat } from '../media/probe.ts';
import { resolveMediaTools } from '../media/tools.ts';
import {
  lookAtFrame,
  noStats,
  perceiveScenes,
  type SceneFrames,
} from '../perception/perceive-scenes.ts';
import { overlap, type SourceVideo } from '../perception/source-look.ts';
import { scenesOf } from '../pipeline/video-store.ts';
import { assignVideoFaces } from '../people/assign.ts';
import { redescribeFaces, staleSceneFaces } from '../repositories/faces.ts';
import { FACE_DESCRIPTOR_VERSION } from './descriptor-version.ts';
import { describePeopleImages, storeSceneFaces, type FaceWork } from './scene-faces.ts';

/**
 * A video whose faces (of its scenes or people images) carry only the old embedding, or a
 * descriptor of an older version.
 */
const OLD_FACES = `(EXISTS (SELECT 1 FROM scene_faces f WHERE f.video_id = v.id
             AND (f.descriptor IS NULL OR f.descriptor_version < ${FACE_DESCRIPTOR_VERSION}))
  OR EXISTS (SELECT 1 FROM video_people p WHERE p.video_id = v.id
             AND ((p.face_embedding IS NOT NULL AND p.descriptor IS NULL)
                  OR (p.descriptor IS NOT NULL
                      AND p.descriptor_version < ${FACE_DESCRIPTOR_VERSION}))))`;

/** A stored face is the face found again where their boxes overlap this much (IoU). */
const SAME_BOX = 0.5;

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
    const [faceRes] = await ctx.db.query(
      'SELECT 1 FROM scene_faces WHERE video_id = $1 AND descriptor IS NULL LIMIT 1',
      [videoId],
    );
    if (!faceRes) {
      await redescribeInPlace(w);
      await assignVideoFaces(ctx.db, videoId);
      return true;
    }
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

/** The video as the analysis read it (its probe), for small faces at full size; else undefined. */
async function sourceOfVideo(w: FaceWork): Promise<SourceVideo | undefined> {
  const [row] = await w.ctx.db.query<{
    source_key: string | null;
    probe: { width?: number; format?: VideoFormat; formatName?: string } | null;
  }>(
    `SELECT v.source_key, p.data AS probe FROM videos v
     LEFT JOIN pipeline_steps p ON p.video_id = v.id AND p.step = 'probe'
     WHERE v.id = $1`,
    [w.videoId],
  );
  const format = row?.probe?.format ?? videoFormat(row?.probe?.formatName ?? '');
  const width = row?.probe?.width;
  if (!row?.source_key || !format || !width) return undefined;
  if (!(await w.ctx.storage.stat(row.source_key))) return undefined;
  return { ffmpeg: w.ffmpeg, file: await w.localFile(row.source_key), format, width };
}

/**
 * Describes the faces of an older version again where each was seen: its scene's frame is looked
 * at as the analysis looks at it, and the face found on its box gives the new descriptor. A face
 * not found there again (none should be: the detector has not changed) keeps its descriptor,
 * marked current so that it is not tried for ever.
 */
async function redescribeInPlace(w: FaceWork): Promise<void> {
  const stale = await staleSceneFaces(w.ctx.db, w.videoId);
  if (stale.length === 0) return;
  const source = await sourceOfVideo(w);
  const [cut] = await w.ctx.db.query<{ scenes: { frameMs?: number[] }[] | null }>(
    `SELECT data -> 'scenes' AS scenes FROM pipeline_steps WHERE video_id = $1 AND step = 'scenes'`,
    [w.videoId],
  );
  const scenes = new Map((await scenesOf(w.ctx.db, w.videoId)).map((s) => [s.idx, s]));
  const log = w.ctx.log.child({ component: 'recompute-faces' });
  const stats = noStats();
  const described: { id: string; descriptor: number[] | null }[] = [];
  // The stale faces by the frame they were seen on: each frame is looked at once.
  const byFrame = new Map<string, typeof stale>();
  for (const f of stale) {
    const key = `${f.scene_idx}:${f.frame_idx}`;
    byFrame.set(key, [...(byFrame.get(key) ?? []), f]);
  }
  for (const faces of byFrame.values()) {
    const { scene_idx: idx, frame_idx: n } = faces[0]!;
    const scene = scenes.get(idx);
    const frameKey = n === null ? undefined : scene?.frames[n];
    if (!scene || n === null || !frameKey) {
      described.push(...faces.map((f) => ({ id: f.id, descriptor: null })));
      continue;
    }
    const frameMs = cut?.scenes?.[idx]?.frameMs;
    // Only the face's frame is read (lookAtFrame reads frame n alone).
    const sceneFrames: SceneFrames = {
      framePaths: await Promise.all(scene.frames.map((k, i) => (i === n ? w.localFile(k) : ''))),
      ...(frameMs?.length === scene.frames.length && { frameMs }),
    };
    const seen = await lookAtFrame(sceneFrames, n, { faces: true, objects: false }, stats, {
      signal: w.signal,
      source,
    });
    for (const f of faces) {
      let best: { iou: number; descriptor: number[] } | undefined;
      for (const found of seen.faces) {
        const iou = f.box ? overlap(found.box, f.box) : 0;
        if (found.descriptor.length > 0 && iou >= SAME_BOX && iou > (best?.iou ?? 0))
          best = { iou, descriptor: found.descriptor };
      }
      if (!best) log.info({ videoId: w.videoId, faceId: f.id }, 'face not found again');
      described.push({ id: f.id, descriptor: best?.descriptor ?? null });
    }
  }
  await w.ctx.db.tx((q) => redescribeFaces(q, described));
}

export const recomputeFacesHandler: JobHandler = {
  name: JobName.RecomputeFaces,
  run: async (ctx, job, signal) => {
    if (job.video_id) await recomputeVideoFaces(ctx, job.video_id, signal);
  },
};
