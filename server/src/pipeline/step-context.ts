// What every pipeline step gets: the video, the tools, a private temp folder, local paths of the
// source and the playable file (downloaded once from S3 when needed), and the recorded results of
// the steps before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import type { ContentDigest } from '../lib/content-digest.ts';
import type { LocalCopy } from '../storage/storage.ts';
import { removeTree } from '../media/media-thread.ts';
import type { MediaTools } from '../media/tools.ts';
import type { VideoToAnalyse } from './video-store.ts';

export interface StepContext {
  ctx: AppContext;
  video: VideoToAnalyse;
  tools: MediaTools;
  signal: AbortSignal;
  /** Empty folder for this run; removed when the job ends. */
  workDir: string;
  /** Results recorded by finished steps, by step name. */
  results: Map<string, unknown>;
  /** A local file of the storage key (cached for the run). */
  localFile(key: string): Promise<string>;
  /**
   * The same, with the SHA-256 and size of its bytes: taken during S3's download, else by one
   * read of the local file. The first call for a key must ask for it (it is not taken later).
   */
  localFileDigest(key: string): Promise<{ path: string } & ContentDigest>;
  /**
   * Work one step started for a later one in this run, by the later step's name (not recorded:
   * a resumed run does it again).
   */
  ahead: Map<string, unknown>;
}

export interface Step<T = unknown> {
  name: string;
  /** Does the step's work and answers what later steps need (stored as JSON). */
  run(s: StepContext): Promise<T>;
  /**
   * Slow set-up of the step started in the background once the named earlier step has finished
   * (this step not having run yet), so that it overlaps the steps in between. Must not fail or
   * wait.
   */
  prepare?: { after: string; start(s: StepContext): void };
  /**
   * Runs in the background from its turn, alongside the steps after it, and is waited for before
   * the named later step (for a step no later one reads, such as the clips: its ffmpeg copy then
   * overlaps the models and the OCR on the other core).
   */
  joinBefore?: string;
}

/** Output keys of a video: everything the pipeline writes lives under output/<videoId>/. */
export const outputKey = (videoId: string, ...parts: string[]): string =>
  ['output', videoId, ...parts].join('/');

export async function openStepContext(
  ctx: AppContext,
  video: VideoToAnalyse,
  tools: MediaTools,
  signal: AbortSignal,
  results: Map<string, unknown>,
): Promise<{ step: StepContext; close(): Promise<void> }> {
  const workDir = await fs.promises.mkdtemp(
    path.join(os.tmpdir(), `va-job-${video.id.slice(0, 8)}-`),
  );
  const held = new Map<string, LocalCopy>();
  const step: StepContext = {
    ctx,
    video,
    tools,
    signal,
    workDir,
    results,
    ahead: new Map(),
    async localFile(key) {
      const found = held.get(key);
      if (found) return found.path;
      const local = await ctx.storage.localPath(key);
      held.set(key, local);
      return local.path;
    },
    async localFileDigest(key) {
      const found = held.get(key);
      if (found?.digest) return { path: found.path, ...found.digest };
      await found?.release();
      const local = await ctx.storage.localPath(key, { digest: true });
      held.set(key, local);
      return { path: local.path, ...local.digest! };
    },
  };
  return {
    step,
    async close() {
      for (const h of held.values()) await h.release().catch(() => undefined);
      await removeTree(workDir);
    },
  };
}

/** A typed view of a finished step's recorded result. */
export function resultOf<T>(s: StepContext, step: Step<T>): T {
  if (!s.results.has(step.name)) throw new Error(`step "${step.name}" has not run`);
  return s.results.get(step.name) as T;
}
