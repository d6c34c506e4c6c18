// Stopping a video's work before it is deleted (DELETE /api/videos/{id}, account deletion).
import type { AppContext } from '../context.ts';
import { cancelJobs } from '../jobs/queue.ts';

/**
 * Cancels the video's queued and running jobs. A handler in this process stops at once (its
 * ffmpeg is killed); one in another worker process stops at its next lease heartbeat and then
 * removes any output it wrote after the delete. Call it before deleting the row and the files.
 */
export async function cancelVideoJobs(
  ctx: Pick<AppContext, 'db' | 'now'>,
  videoId: string,
): Promise<void> {
  await cancelJobs(ctx, videoId);
}
