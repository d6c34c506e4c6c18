// Scenes, their frames and thumbnails from one decode of the video (media/analysis-pass.ts).
import fs from 'node:fs';
import path from 'node:path';
import { VIDEO_SCENES_MAX } from '../limits.ts';
import { endsEarly, runAnalysisPass, type SettledCut } from '../media/analysis-pass.ts';
import type { PerceiveAhead } from '../perception/perceive-ahead.ts';
import { VideoFailure } from './failure.ts';
import { mapLimit } from '../lib/map-limit.ts';
import { removeTree } from '../media/media-thread.ts';
import { probeOf } from './media-steps.ts';
import { perceiveAheadOf } from './perceive-step.ts';
import { outputKey, type Step } from './step-context.ts';
import type { ScenesResult } from './scenes-result.ts';
import { replaceScenes, updateVideo, type SceneInsert } from './video-store.ts';

/** Shorter scenes are merged into their neighbours. */
export const MIN_SCENE_MS = 1000;
/** Frame images kept per scene, evenly spaced. */
export const MAX_FRAMES_PER_SCENE = 12;
/** Images stored at once (files on disk, or requests to S3). */
const STORE_PARALLEL = 8;
/** Widest frame image (px); smaller videos keep their size. */
export const FRAME_MAX_WIDTH = 640;

/** When candidate image `i` of a grid of gridFps images a second shows (ms). */
export const gridMs = (i: number, gridFps: number): number => Math.round((i * 1000) / gridFps);

/** Up to `max` evenly spaced picks among candidate indexes [from, to); the nearest one if none. */
export function pickEvenly(from: number, to: number, max: number, nearest: number): number[] {
  const count = to - from;
  if (count <= 0) return [nearest];
  if (count <= max) return Array.from({ length: count }, (_, i) => from + i);
  return Array.from({ length: max }, (_, i) => from + Math.floor(((i + 0.5) * count) / max));
}

/** The first candidate image (index) at or after `ms` on a grid of gridFps images a second. */
const gridIndex = (ms: number, gridFps: number): number => Math.ceil((ms * gridFps) / 1000 - 1e-6);

/**
 * The candidate frames (indexes) kept for the scene startMs..endMs: MAX_FRAMES_PER_SCENE evenly
 * spread, from a grid of gridFps candidates of which `gridCount` exist.
 */
export function scenePicks(
  startMs: number,
  endMs: number,
  gridFps: number,
  gridCount: number,
): number[] {
  const mid = Math.min(gridCount - 1, Math.floor((((startMs + endMs) / 2) * gridFps) / 1000));
  return pickEvenly(
    Math.min(gridCount, gridIndex(startMs, gridFps)),
    Math.min(gridCount, gridIndex(endMs, gridFps)),
    MAX_FRAMES_PER_SCENE,
    mid,
  );
}

/** Offers the models each scene the cut has settled, once its frames are written. */
function offerSettled(ahead: PerceiveAhead, cut: SettledCut): void {
  if (cut.attempt !== ahead.attempt) ahead.restart(cut.attempt);
  const starts = [0, ...cut.boundariesMs];
  for (let idx = ahead.offered; idx + 1 < starts.length; idx++) {
    const startMs = starts[idx]!;
    const endMs = starts[idx + 1]!;
    // The candidates up to the scene's end, as scenePicks reads them once the cut is over.
    const needed = gridIndex(endMs, cut.gridFps);
    if (cut.gridWritten() < needed) return;
    const picks = scenePicks(startMs, endMs, cut.gridFps, needed);
    ahead.offer({
      startMs,
      endMs,
      framePaths: picks.map((i) => cut.gridFrame(i)),
      frameMs: picks.map((i) => gridMs(i, cut.gridFps)),
    });
  }
}

export const scenesStep: Step<ScenesResult> = {
  name: 'scenes',
  async run(s) {
    const probe = probeOf(s);
    const gridDir = path.join(s.workDir, 'frames');
    await fs.promises.mkdir(gridDir, { recursive: true });
    // Scenes the cut has settled are looked at by the models while it goes on (perceive step).
    const ahead = perceiveAheadOf(s);
    const pass = await runAnalysisPass({
      ffmpeg: s.tools.ffmpeg,
      input: await s.localFile(s.video.source_key!),
      workDir: gridDir,
      durationMs: probe.durationMs,
      format: probe.format,
      minSceneMs: MIN_SCENE_MS,
      maxScenes: VIDEO_SCENES_MAX,
      frameMaxWidth: FRAME_MAX_WIDTH,
      frameRate: probe.frameRate,
      signal: s.signal,
      ...(ahead && {
        onSettled: (cut: SettledCut) => offerSettled(ahead, cut),
      }),
    });
    ahead?.stopOffers();
    if (endsEarly(probe.durationMs, pass.decodedMs)) {
      const shown = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
      throw new VideoFailure(
        'incomplete',
        `the video file is incomplete or damaged: it plays ${shown(pass.decodedMs)} ` +
          `of the ${shown(probe.durationMs)} it claims`,
      );
    }
    const grid = pass.gridFrames;
    // A re-run (retry, recovered crash) must not leave the images of an earlier cut behind.
    await s.ctx.storage.deletePrefix(outputKey(s.video.id, 'scenes'));
    if (grid.length === 0)
      throw new VideoFailure('undecodable', 'the video has no decodable frames');
    const starts = [0, ...pass.boundariesMs];
    const rows: SceneInsert[] = [];
    const result: ScenesResult = { scenes: [] };
    // The images to keep, stored STORE_PARALLEL at a time: one after the other, a fresh cut's
    // 150-odd files took a third of a second here (each a few file operations on the thread
    // pool, the cores meanwhile half idle), and seconds on S3, where each is a request.
    const stored: { key: string; file: string }[] = [];
    for (let idx = 0; idx < starts.length; idx++) {
      const startMs = starts[idx]!;
      const endMs = starts[idx + 1] ?? probe.durationMs;
      const picks = scenePicks(startMs, endMs, pass.gridFps, grid.length);
      const sceneKey = (name: string): string => outputKey(s.video.id, 'scenes', String(idx), name);
      const frames = picks.map((g, n) => {
        const key = sceneKey(`frame-${String(n + 1).padStart(2, '0')}.jpg`);
        stored.push({ key, file: grid[g]! });
        return key;
      });
      const thumb = sceneKey('thumbnail.jpg');
      stored.push({ key: thumb, file: grid[picks[Math.floor(picks.length / 2)]!]! });
      rows.push({ idx, start_ms: startMs, end_ms: endMs, thumbnail_key: thumb, frames });
      result.scenes.push({
        startMs,
        endMs,
        visual: pass.visual.summarise(startMs, endMs),
        frameMs: picks.map((g) => gridMs(g, pass.gridFps)),
      });
    }
    // The video's picture: the first well-lit candidate after a tenth of the video (titles and
    // fade-ins come first), else the middle one.
    let cover = Math.floor(grid.length / 2);
    for (let g = Math.floor(grid.length / 10); g < grid.length; g++) {
      const ms = (g * 1000) / pass.gridFps;
      if (pass.visual.luma.get(pass.visual.indexAt(ms)) >= 0.15) {
        cover = g;
        break;
      }
    }
    const coverKey = outputKey(s.video.id, 'thumbnail.jpg');
    stored.push({ key: coverKey, file: grid[cover]! });
    await mapLimit(stored, STORE_PARALLEL, ({ key, file }) =>
      s.ctx.storage.put(key, fs.createReadStream(file), 'image/jpeg'),
    );
    await s.ctx.db.tx(async (q) => {
      await replaceScenes(q, s.video.id, rows);
      await updateVideo(q, s.video.id, { thumbnail_key: coverKey });
    });
    // The models may still be reading candidates of the last scenes offered.
    // (The job's folder, which holds this one, is removed at its end whatever happens.)
    void (ahead?.idle() ?? Promise.resolve())
      .then(() => removeTree(gridDir))
      .catch(() => undefined);
    return result;
  },
};
