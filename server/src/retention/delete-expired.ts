// The privacy policy's promise: videos and their results are deleted automatically 3 years after
// upload (deletion within 30 days). The daily 'delete-expired-videos' job (jobs/schedules.ts)
// deletes every video uploaded before the limit exactly as DELETE /api/videos/{id} does.
import type { AppContext } from '../context.ts';
import { throwIfAborted } from '../jobs/errors.ts';
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { VIDEO_RETENTION_YEARS } from '../limits.ts';
import { deleteVideo } from '../pipeline/delete-video.ts';
import { videoIdsCreatedBefore } from '../repositories/videos.ts';

const BATCH = 100;

/** The upload time before which a video has been kept long enough: now minus 3 calendar years. */
export function retentionLimit(now: number): Date {
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() - VIDEO_RETENTION_YEARS);
  return limit;
}

/**
 * Deletes every video past the limit; answers how many. One video that cannot be deleted (its
 * bucket answers an error) does not hold back the others; the run then fails, so the job is
 * retried with backoff and tomorrow's run tries again. Stops between videos when aborted.
 */
export async function deleteExpiredVideos(
  ctx: AppContext,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  const before = retentionLimit(ctx.now());
  const failed: string[] = [];
  let deleted = 0;
  let lastError: unknown;
  for (;;) {
    const ids = await videoIdsCreatedBefore(ctx.db, { before, skip: failed, limit: BATCH });
    if (ids.length === 0) break;
    for (const id of ids) {
      throwIfAborted(signal);
      try {
        if (await deleteVideo(ctx, id)) deleted += 1;
      } catch (err) {
        failed.push(id);
        lastError = err;
      }
    }
  }
  if (failed.length > 0) {
    throw new Error(`${failed.length} expired videos could not be deleted (${failed.join(', ')})`, {
      cause: lastError,
    });
  }
  return deleted;
}

export const deleteExpiredVideosHandler: JobHandler = {
  name: JobName.DeleteExpiredVideos,
  async run(ctx, _job, signal) {
    const deleted = await deleteExpiredVideos(ctx, signal);
    if (deleted > 0) {
      ctx.log
        .child({ component: 'retention' })
        .info(
          { deleted, limit: retentionLimit(ctx.now()).toISOString() },
          'videos past the retention limit deleted',
        );
    }
  },
};
