// Putting work on the queue and taking it off a video, for routes and for the chain.
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { cancelJobsOfVideo, insertJob } from './job-store.ts';
import type { JobName } from './names.ts';
import { jobSignals } from './signals.ts';

export const DEFAULT_MAX_ATTEMPTS = 3;

export interface EnqueueOptions {
  /** Run in the same transaction as the caller's other writes. */
  q?: Queryable;
  delayMs?: number;
  maxAttempts?: number;
}

/**
 * Queues a job for a video; a no-op (undefined) when one with that name is already queued or
 * running for it. Wakes this process's workers, except inside a caller's transaction (`q`): then
 * the caller calls wakeWorkers after the commit, when the row is visible.
 */
export async function enqueue(
  ctx: AppContext,
  name: JobName,
  videoId: string,
  opts: EnqueueOptions = {},
): Promise<string | undefined> {
  const id = await insertJob(opts.q ?? ctx.db, {
    name,
    videoId,
    payload: { videoId },
    runAt: ctx.now() + (opts.delayMs ?? 0),
    maxAttempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  });
  if (id && !opts.q) wakeWorkers(name);
  return id;
}

export function wakeWorkers(name: JobName): void {
  jobSignals.emit('enqueued', name);
}

/** Cancels the video's queued and running jobs; running handlers stop at their next check. */
export async function cancelJobs(
  ctx: Pick<AppContext, 'db' | 'now'>,
  videoId: string,
): Promise<string[]> {
  const ids = await cancelJobsOfVideo(ctx.db, videoId, ctx.now());
  if (ids.length > 0) jobSignals.emit('cancelled', ids);
  return ids;
}
