// The one decode of the whole video: measures every sample (scene changes, brightness, motion,
// colours) from a stream of tiny RGB frames and writes evenly spaced candidate frame images to a
// temp folder, from which each scene's frames are picked afterwards. The decode and the per-frame
// work run in the media thread (media-thread.ts): the server's thread receives only the cut.
import fs from 'node:fs';
import path from 'node:path';
import {
  analysisPassArgs,
  COUNT_BYTES,
  STATS_HEIGHT,
  STATS_WIDTH,
  type VideoFormat,
} from './args.ts';
import { mediaThreadCall } from './media-thread.ts';
import { runProcess } from './run.ts';
import { SceneDetector } from '../scenes/scene-detector.ts';
import { VisualSamples, type VisualData } from './visual.ts';

export interface AnalysisPassResult {
  /** Scene start times after the first scene, ms. */
  boundariesMs: number[];
  visual: VisualSamples;
  /** Candidate frame images in time order; image i shows time i * 1000 / gridFps ms. */
  gridFrames: string[];
  gridFps: number;
  /** How much of the video the decode really showed (ms). */
  decodedMs: number;
  /** Pictures the decoder made (only the reference ones where that sufficed). */
  decodedPictures: number;
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
  /**
   * The probe's frame rate. From twice the sampling rate on (or unknown), only the reference
   * pictures are decoded; a slower video is decoded in full.
   */
  frameRate?: number;
  signal?: AbortSignal;
  /** Told, about once a second of video, what the cut has settled so far (see SettledCut). */
  onSettled?: (cut: SettledCut) => void;
}

/** The part of the cut no later picture can change, as the media thread tells it. */
export interface SettledCutData {
  /** Boundaries (ms) that finish will answer too (SceneDetector.settled). */
  boundariesMs: number[];
  gridFps: number;
  /**
   * Counts the decodes: a stream whose reference pictures are too sparse is decoded again in
   * full, and what the first decode settled no longer holds.
   */
  attempt: number;
}

/** The part of the cut no later picture can change, while the decode goes on. */
export interface SettledCut extends SettledCutData {
  /** The image of candidate i, once written. */
  gridFrame(i: number): string;
  /** How many candidates are whole on disk (ffmpeg has begun the next one). */
  gridWritten(): number;
}

/** The pass's options in the media thread: what it settles is told as plain data. */
type PassHereOptions = Omit<AnalysisPassOptions, 'onSettled'> & {
  onSettled?: (cut: SettledCutData) => void;
};

/** The analysis pass of one video, as the media thread receives it. */
export interface PassTask {
  pass: Omit<AnalysisPassOptions, 'signal' | 'onSettled'> & { settles: boolean };
}

/** What the media thread posts on a pass's port: the cut settled so far. */
export interface SettledMessage {
  settled: SettledCutData;
}

/** The pass's result as it crosses from the media thread (its samples as plain arrays). */
export type PassAnswer = Omit<AnalysisPassResult, 'visual'> & { visual: VisualData };

/** Each decode names its images apart: the models may still read the first one's. */
function gridFramePath(workDir: string, attempt: number, i: number): string {
  return path.join(workDir, `f${attempt}-${String(i + 1).padStart(6, '0')}.jpg`);
}

/** Candidate images per second: dense for short videos, sparse for long ones (disk and time). */
export function gridFpsFor(durationMs: number): number {
  const minutes = durationMs / 60_000;
  if (minutes <= 10) return 4;
  if (minutes <= 60) return 2;
  return 1;
}

/** The analysis pass, run in the media thread; the settled cut is told as it goes. */
export async function runAnalysisPass(o: AnalysisPassOptions): Promise<AnalysisPassResult> {
  const { signal, onSettled, ...options } = o;
  /** Candidates known whole on disk, per decode. */
  const written = new Map<number, number>();
  const settledCut = (cut: SettledCutData): SettledCut => ({
    ...cut,
    gridFrame: (i) => gridFramePath(o.workDir, cut.attempt, i),
    gridWritten() {
      let n = written.get(cut.attempt) ?? 0;
      while (fs.existsSync(gridFramePath(o.workDir, cut.attempt, n + 1))) n++;
      written.set(cut.attempt, n);
      return n;
    },
  });
  const task: PassTask = { pass: { ...options, settles: onSettled !== undefined } };
  const answer = await mediaThreadCall<PassAnswer>(task, {
    signal,
    onMessage: (m) => onSettled?.(settledCut((m as SettledMessage).settled)),
  });
  return { ...answer, visual: VisualSamples.fromData(answer.visual) };
}

/** The analysis pass in the calling thread (the media thread's side of runAnalysisPass). */
export async function runAnalysisPassHere(o: PassHereOptions): Promise<AnalysisPassResult> {
  const statsFps = o.statsFps ?? 10;
  if (o.frameRate !== undefined && o.frameRate < 2 * statsFps) {
    return decodePass(o, statsFps, false, 1);
  }
  // Most videos with B-frames leave about half their pictures to a reference-only decode (the
  // bench's 720p video: 58 % of a full decode's CPU). A stream whose references are sparse
  // (B-frames that nothing refers to between every pair of P-frames at 25 fps, or P-frames that
  // only refer to the keyframe) would be sampled too coarsely: it is decoded again in full, at
  // the cost of a pass.
  const pass = await decodePass(o, statsFps, true, 1);
  if (pass.decodedPictures >= (statsFps * pass.decodedMs) / 1000) return pass;
  await Promise.all(pass.gridFrames.map((f) => fs.promises.rm(f, { force: true })));
  return decodePass(o, statsFps, false, 2);
}

/** One decode of every picture, or of the reference pictures only. */
async function decodePass(
  o: PassHereOptions,
  statsFps: number,
  referenceOnly: boolean,
  attempt: number,
): Promise<AnalysisPassResult> {
  const countFile = path.join(o.workDir, 'decoded.raw');
  const gridFps = gridFpsFor(o.durationMs);
  const detector = new SceneDetector({
    fps: statsFps,
    width: STATS_WIDTH,
    height: STATS_HEIGHT,
    minSceneMs: o.minSceneMs,
    maxScenes: o.maxScenes,
  });
  const settledCut = (): SettledCutData => ({ boundariesMs: detector.settled(), gridFps, attempt });
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
        if (o.onSettled && detector.visual.count % statsFps === 0) o.onSettled(settledCut());
      }
    }
  };
  await runProcess(
    o.ffmpeg,
    analysisPassArgs(o.input, {
      statsFps,
      gridFps,
      frameMaxWidth: o.frameMaxWidth ?? 640,
      framePattern: path.join(o.workDir, `f${attempt}-%06d.jpg`),
      format: o.format,
      referenceOnly,
      countFile,
    }),
    { onStdout, signal: o.signal, timeoutMs: Math.max(10 * 60_000, o.durationMs * 4) },
  );
  const ours = new RegExp(`^f${attempt}-\\d{6}\\.jpg$`);
  const gridFrames = (await fs.promises.readdir(o.workDir))
    .filter((f) => ours.test(f))
    .sort()
    .map((f) => path.join(o.workDir, f));
  // No file when nothing was decoded (ffmpeg opens its outputs on the first picture).
  const counted = await fs.promises.stat(countFile).catch(() => undefined);
  const decodedPictures = (counted?.size ?? 0) / COUNT_BYTES;
  await fs.promises.rm(countFile, { force: true });
  return {
    boundariesMs: detector.finish(),
    visual: detector.visual,
    gridFrames,
    gridFps,
    decodedMs: detector.visual.timeMs(detector.visual.count),
    decodedPictures,
  };
}
