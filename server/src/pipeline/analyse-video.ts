// The 'analyse-video' job: runs the unfinished steps of PIPELINE for one video (run-steps.ts),
// then marks it completed. Stops between steps (and kills ffmpeg) as soon as the job is cancelled.
import type { AppContext } from '../context.ts';
import { errorText, PermanentJobError, throwIfAborted } from '../jobs/errors.ts';
import type { JobRow } from '../jobs/job-store.ts';
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { resolveMediaTools } from '../media/tools.ts';
import { failureCodeOf } from './failure.ts';
import { runSteps } from './run-steps.ts';
import { openStepContext, type Step } from './step-context.ts';
import { PIPELINE } from './steps.ts';
import {
  finishedSteps,
  recordStep,
  setStatus,
  videoExists,
  videoToAnalyse,
} from './video-store.ts';

/** A failure inside a named step, so the logs and the failure reason say where. */
export class StepError extends Error {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(`${step} step failed: ${errorText(cause)}`, {
      cause,
    });
    this.name = 'StepError';
  }
}

const videoIdOf = (job: JobRow): string => job.payload.videoId ?? job.video_id ?? '';

export async function analyseVideo(
  ctx: AppContext,
  videoId: string,
  signal: AbortSignal,
): Promise<void> {
  const video = await videoToAnalyse(ctx.db, videoId);
  if (!video) return; // Deleted meanwhile: nothing to do.
  const results = await finishedSteps(ctx.db, videoId);
  const tools = resolveMediaTools(ctx.config);
  const { step, close } = await openStepContext(ctx, video, tools, signal, results);
  const runStep = async (s: Step): Promise<void> => {
    let data: unknown;
    try {
      data = await s.run(step);
    } catch (err) {
      throwIfAborted(signal);
      if (err instanceof PermanentJobError) throw err;
      throw new StepError(s.name, err);
    }
    throwIfAborted(signal);
    // Stored as JSON; later steps read the same shape whether this run or an earlier one made it.
    const stored: unknown = JSON.parse(JSON.stringify(data ?? {}));
    await recordStep(ctx.db, videoId, s.name, stored);
    results.set(s.name, stored);
  };
  try {
    await runSteps(PIPELINE, {
      finished: (name) => results.has(name),
      run: runStep,
      prepare: (later) => later.prepare?.start(step),
      checkAborted: () => throwIfAborted(signal),
    });
    throwIfAborted(signal);
    await setStatus(ctx.db, videoId, 'completed');
  } finally {
    await close();
  }
}

export const analyseVideoHandler: JobHandler = {
  name: JobName.AnalyseVideo,
  run: (ctx, job, signal) => analyseVideo(ctx, videoIdOf(job), signal),
  async onFailed(_ctx, job, err, q) {
    // The reason is the operator's detail; the code is what the app tells the user, in words.
    const reason = err instanceof PermanentJobError ? err.reason : errorText(err).slice(0, 500);
    await setStatus(q, videoIdOf(job), 'failed', { reason, code: failureCodeOf(err) });
  },
  async onCancelled(ctx, job) {
    // The video was deleted while we worked: remove what we wrote after its files were removed.
    const id = videoIdOf(job);
    if (id && !(await videoExists(ctx.db, id))) await ctx.storage.deletePrefix(`output/${id}/`);
  },
};
