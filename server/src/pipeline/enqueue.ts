// Starting a video's analysis: called by PUT /api/videos/{id}/update-status {status: in_progress}
// and by POST /api/videos/{id}/retry-process.
import type { AppContext } from '../context.ts';
import { jobsOfVideo } from '../jobs/job-store.ts';
import { JobName } from '../jobs/names.ts';
import { enqueue, wakeWorkers } from '../jobs/queue.ts';
import { clearSteps, setStatus } from './video-store.ts';

const isLive = (state: string): boolean => state === 'queued' || state === 'running';

/**
 * Sets the video in_progress and queues its analysis from the first step. A no-op (false) while
 * an analysis of the video is already queued or running, so a repeated status call is harmless.
 */
export async function enqueueAnalysis(ctx: AppContext, videoId: string): Promise<boolean> {
  return start(ctx, videoId, true);
}

/**
 * Queues the analysis again after a failure; steps that finished before are kept, so the work
 * resumes at the step that failed.
 */
export async function retryAnalysis(ctx: AppContext, videoId: string): Promise<boolean> {
  return start(ctx, videoId, false);
}

async function start(ctx: AppContext, videoId: string, fresh: boolean): Promise<boolean> {
  const queued = await ctx.db.tx(async (q) => {
    const jobs = await jobsOfVideo(q, videoId);
    if (jobs.some((j) => j.name === JobName.AnalyseVideo && isLive(j.state))) return false;
    if (fresh) await clearSteps(q, videoId);
    await setStatus(q, videoId, 'in_progress');
    return (await enqueue(ctx, JobName.AnalyseVideo, videoId, { q })) !== undefined;
  });
  if (queued) wakeWorkers(JobName.AnalyseVideo);
  return queued;
}
