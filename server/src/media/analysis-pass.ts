// The one decode of the whole video: measures every sample (scene changes, brightness, motion,
// colours) from a stream of tiny RGB frames and writes evenly spaced candidate frame images to a
// temp folder, from which each scene's frames are picked afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { analysisPassArgs, STATS_HEIGHT, STATS_WIDTH, type VideoFormat } from './args.ts';
import { runProcess } from './run.ts';
import { SceneDetector } from './scene-detector.ts';
import type { VisualSamples } from './visual.ts';

export interface AnalysisPassResult {
  /** Scene start times after the first scene, ms. */
  boundariesMs: number[];
  visual: VisualSamples;
  /** Candidate frame images in time order; image i shows time i * 1000 / gridFps ms. */
  gridFrames: string[];
  gridFps: number;
  /** How much of the video the decode really showed (ms). */
  decodedMs: number;
}

/**
 * Whether a decode that showed decodedMs of a video said to last claimedMs stopped early: a
 * truncated upload, or headers that lie about the length. A still tail of a screen recording
 * can end the pictures a little before the sound, hence the allowance.
 */
export function endsEarly(claimedMs: number, decodedMs: number): boolean {
  return claimedMs - decodedMs > Math.max(2000, 0.25 * claimedMs);
}

export interface AnalysisPassOptions {
  ffmpeg: string;
  input: string;
  /** A fresh empty folder for the candidate images. */
  workDir: string;
  durationMs: number;
  /** The container the probe found (forced with -f). */
  format: VideoFormat;
  minSceneMs: number;
  /** At most this many scenes (the strongest boundaries win). */
  maxScenes?: number;
  statsFps?: number;
  frameMaxWidth?: number;
  signal?: AbortSignal;
}

/** Candidate images per second: dense for short videos, sparse for long ones (disk and time). */
export function gridFpsFor(durationMs: number): number {
  const minutes = durationMs / 60_000;
  if (minutes <= 10) return 4;
  if (minutes <= 60) return 2;
  return 1;
}

export async function runAnalysisPass(o: AnalysisPassOptions): Promise<AnalysisPassResult> {
  const statsFps = o.statsFps ?? 10;
  const gridFps = gridFpsFor(o.durationMs);
  const detector = new SceneDetector({
    fps: statsFps,
    width: STATS_WIDTH,
    height: STATS_HEIGHT,
    minSceneMs: o.minSceneMs,
    maxScenes: o.maxScenes,
  });
  const frameBytes = STATS_WIDTH * STATS_HEIGHT * 3;
  const pending = Buffer.alloc(frameBytes);
  let filled = 0;
  const onStdout = (chunk: Buffer): void => {
    let at = 0;
    while (at < chunk.length) {
      const take = Math.min(frameBytes - filled, chunk.length - at);
      chunk.copy(pending, filled, at, at + take);
      filled += take;
      at += take;
      if (filled === frameBytes) {
        detector.push(pending);
        filled = 0;
      }
    }
  };
  await runProcess(
    o.ffmpeg,
    analysisPassArgs(o.input, {
      statsFps,
      gridFps,
      frameMaxWidth: o.frameMaxWidth ?? 640,
      framePattern: path.join(o.workDir, 'f%06d.jpg'),
      format: o.format,
    }),
    { onStdout, signal: o.signal, timeoutMs: Math.max(10 * 60_000, o.durationMs * 4) },
  );
  const gridFrames = (await fs.promises.readdir(o.workDir))
    .filter((f) => /^f\d{6}\.jpg$/.test(f))
    .sort()
    .map((f) => path.join(o.workDir, f));
  return {
    boundariesMs: detector.finish(),
    visual: detector.visual,
    gridFrames,
    gridFps,
    decodedMs: detector.visual.timeMs(detector.visual.count),
  };
}
