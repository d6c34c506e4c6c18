// What the trailer and report jobs share: the creating flag around the work, and clean-up when
// the job fails for good (flag cleared, reason kept, previous output untouched) or is cancelled.
import type { AppContext } from '../context.ts';
import { errorText, PermanentJobError } from '../jobs/errors.ts';
import type { JobRow } from '../jobs/job-store.ts';
import type { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { failCreating, markCreating, type OutputKind } from '../repositories/outputs.ts';
import { videoExists } from '../pipeline/video-store.ts';

const videoIdOf = (job: JobRow): string => job.payload.videoId ?? job.video_id ?? '';

export function outputJobHandler(
  name: JobName,
  kind: OutputKind,
  work: (ctx: AppContext, videoId: string, signal: AbortSignal) => Promise<void>,
): JobHandler {
  return {
    name,
    async run(ctx, job, signal) {
      const id = videoIdOf(job);
      await markCreating(ctx.db, kind, id);
      await work(ctx, id, signal);
    },
    async onFailed(ctx, job, err, q) {
      const reason = err instanceof PermanentJobError ? err.reason : errorText(err);
      await failCreating(q, kind, videoIdOf(job), reason, new Date(ctx.now()));
      ctx.log
        .child({ component: kind })
        .warn({ video: videoIdOf(job), reason }, `${kind} not made`);
    },
    async onCancelled(ctx, job) {
      // Cancelled because the video is being deleted: remove anything written after its files.
      const id = videoIdOf(job);
      if (id && !(await videoExists(ctx.db, id))) await ctx.storage.deletePrefix(`output/${id}/`);
    },
  };
}
