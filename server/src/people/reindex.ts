// After people change (a name, a merge, a rejection, groups joined): the scenes' keyword rows are
// rebuilt in the change's own transaction, so keyword search finds the new name as soon as the
// call answers; the dense vectors, which may take a remote model seconds, follow through the
// reindex-video job.
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { insertJob } from '../jobs/job-store.ts';
import { DEFAULT_MAX_ATTEMPTS, wakeWorkers } from '../jobs/queue.ts';
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { indexVideo, indexVideoKeywords } from '../search/index-video.ts';
import type { Touched } from './corrections.ts';

/** Keyword rows of the touched videos and scenes, and their vectors queued; in the caller's tx. */
export async function reindexTouched(q: Queryable, touched: Touched, now: number): Promise<void> {
  for (const [videoId, scenes] of touched) {
    await indexVideoKeywords(q, videoId, scenes);
    await insertJob(q, {
      name: JobName.ReindexVideo,
      videoId,
      payload: { videoId },
      runAt: now,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
    });
  }
}

/** After the commit: the queued re-embeddings become visible to the workers. */
export function wakeReindex(touched: Touched): void {
  if (touched.size > 0) wakeWorkers(JobName.ReindexVideo);
}

export const reindexVideoHandler: JobHandler = {
  name: JobName.ReindexVideo,
  run: async (ctx: AppContext, job) => {
    if (job.video_id) await indexVideo(ctx, job.video_id);
  },
};
