// Recurring housekeeping jobs (their schedules are in schedules.ts): expired uploads, the
// throttle table and finished jobs. Each is safe to run twice, as any job may be after a crash.
import { pruneThrottle } from '../accounts/throttle.ts';
import { JOB_RETENTION_MS } from '../limits.ts';
import { cleanupExpiredUploads } from '../routes/uploads/cleanup.ts';
import { pruneFinishedJobs } from './job-store.ts';
import { JobName } from './names.ts';
import type { JobHandler } from './registry.ts';

export const cleanupUploadsHandler: JobHandler = {
  name: JobName.CleanupUploads,
  run: async (ctx) => {
    await cleanupExpiredUploads(ctx);
  },
};

export const pruneThrottleHandler: JobHandler = {
  name: JobName.PruneThrottle,
  run: (ctx) => pruneThrottle(ctx),
};

export const pruneJobsHandler: JobHandler = {
  name: JobName.PruneJobs,
  run: async (ctx) => {
    await pruneFinishedJobs(ctx.db, ctx.now() - JOB_RETENTION_MS);
  },
};
