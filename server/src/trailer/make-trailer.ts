// The 'make-trailer' work: rank the video's scenes against the instruction, plan the pieces,
// cut and join them with one ffmpeg run, store the file under a new name and point the video
// at it. The previous trailer stays until the new one is stored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { PermanentJobError, throwIfAborted } from '../jobs/errors.ts';
import { TRAILER_CROSSFADE_MS, TRAILER_MAX_HEIGHT } from '../limits.ts';
import { probeFile } from '../media/operations.ts';
import { NotAVideoError } from '../media/probe.ts';
import { runProcess } from '../media/run.ts';
import { resolveMediaTools } from '../media/tools.ts';
import { finishedSteps, scenesOf } from '../pipeline/video-store.ts';
import { finishCreating, outputVideo } from '../repositories/outputs.ts';
import { ffmpegCaps } from './ffmpeg-caps.ts';
import {
  fitSize,
  trailerArgs,
  trailerFps,
  trailerLength,
  type TrailerFormat,
} from './ffmpeg-args.ts';
import { planTrailer, type PlanScene } from './plan.ts';
import { rankScenes } from './scene-ranking.ts';

/** Motion per scene index as the analysis measured it (absent for videos made before). */
async function sceneMotion(ctx: AppContext, videoId: string): Promise<Map<number, number>> {
  const steps = await finishedSteps(ctx.db, videoId);
  const data = steps.get('scenes') as { scenes?: { visual?: { motion?: unknown } }[] } | undefined;
  const motion = new Map<number, number>();
  data?.scenes?.forEach((s, idx) => {
    const m = s.visual?.motion;
    if (typeof m === 'number' && Number.isFinite(m)) motion.set(idx, m);
  });
  return motion;
}

export async function makeTrailer(
  ctx: AppContext,
  videoId: string,
  signal: AbortSignal,
): Promise<void> {
  const video = await outputVideo(ctx.db, videoId);
  if (!video) return; // Deleted meanwhile.
  const instruction = video.trailer_instruction?.trim() ?? '';
  const sourceKey = video.playable_key ?? video.source_key;
  if (!instruction) throw new PermanentJobError('there is no trailer instruction');
  if (!sourceKey) throw new PermanentJobError('the video file is missing');
  const stored = await scenesOf(ctx.db, videoId);
  if (stored.length === 0) throw new PermanentJobError('the video has no scenes');

  const tools = resolveMediaTools(ctx.config);
  const local = await ctx.storage.localPath(sourceKey);
  const workDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-trailer-'));
  try {
    let probe;
    try {
      probe = await probeFile(tools, local.path, signal);
    } catch (err) {
      if (err instanceof NotAVideoError) {
        throw new PermanentJobError('the video file cannot be read', { cause: err });
      }
      throw err;
    }
    const motion = await sceneMotion(ctx, videoId);
    const scenes: PlanScene[] = stored.map((s) => ({
      idx: s.idx,
      startMs: s.start_ms,
      endMs: Math.min(s.end_ms, probe.durationMs),
      motion: motion.get(s.idx) ?? 0,
    }));
    const ranked = await rankScenes(ctx, {
      teamId: video.team_id,
      videoId,
      text: instruction,
      sceneCount: scenes.length,
    });
    const plan = planTrailer(
      scenes.filter((s) => s.endMs > s.startMs),
      ranked,
      probe.durationMs,
    );
    if (plan.segments.length === 0) throw new PermanentJobError('no scene is long enough');

    const format: TrailerFormat = {
      ...fitSize(probe.width, probe.height, TRAILER_MAX_HEIGHT),
      fps: trailerFps(probe.frameRate),
      hasAudio: probe.audioCodec !== undefined,
      fadeMs: TRAILER_CROSSFADE_MS,
      xfade: (await ffmpegCaps(tools.ffmpeg)).xfade,
      container: probe.format,
    };
    const file = path.join(workDir, 'trailer.mp4');
    const lengthMs = trailerLength(plan.segments, format);
    await runProcess(tools.ffmpeg, trailerArgs(local.path, file, plan.segments, format), {
      signal,
      timeoutMs: Math.max(5 * 60_000, lengthMs * 20),
    });
    throwIfAborted(signal);

    // A new name each time: browsers and the service worker never show a cached old trailer.
    const key = `output/${videoId}/trailer-${ctx.now()}.mp4`;
    await ctx.storage.put(key, fs.createReadStream(file), 'video/mp4');
    const record = {
      instruction,
      basis: plan.basis,
      matched: plan.matched,
      scenes: plan.segments.map((s) => s.idx),
      segments: plan.segments.map((s) => ({ index: s.idx, start_ms: s.startMs, end_ms: s.endMs })),
      length_ms: lengthMs,
      crossfade: format.xfade ? 'xfade' : 'fade',
      made_at: new Date(ctx.now()).toISOString(),
    };
    const done = await ctx.db.tx((q) => finishCreating(q, 'trailer', videoId, key, record));
    if (!done) {
      await ctx.storage.delete(key); // The video was deleted while we worked.
      return;
    }
    if (done.previousKey && done.previousKey !== key) {
      await ctx.storage.delete(done.previousKey).catch(() => undefined);
    }
  } finally {
    await local.release().catch(() => undefined);
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
}
