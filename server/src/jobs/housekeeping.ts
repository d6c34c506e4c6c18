// Recurring housekeeping jobs (their schedules are in schedules.ts): expired uploads and the
// throttle table. Both are safe to run twice, as any job may be after a crash.
import { pruneThrottle } from '../accounts/throttle.ts';
import { cleanupExpiredUploads } from '../routes/uploads/cleanup.ts';
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
