// Whether an upload is under way, for the update prompt (src/features/pwa, src/sw): a new version must not take over (or a
// page reload) while bytes are moving. Pure over the queue's jobs; used by the worker and pages.
import { UPDATE_IDLE_POLL_MS } from '../config/offline.ts';
import type { UploadJob } from './job-types.ts';

type JobLike = Pick<UploadJob, 'phase' | 'hold' | 'cancelPending'>;

/** A runnable job not yet done (the runner may be sending it now), or a cancel still owed. */
export function isUploadInFlight(job: JobLike): boolean {
  return (job.hold === 'active' && job.phase !== 'done') || job.cancelPending === true;
}

export function uploadsInFlight(jobs: readonly JobLike[]): boolean {
  return jobs.some(isUploadInFlight);
}

/** Resolves once `listJobs` shows nothing in flight, looking again every poll interval. */
export async function whenUploadsIdle(
  listJobs: () => Promise<readonly JobLike[]>,
  pollMs = UPDATE_IDLE_POLL_MS,
): Promise<void> {
  while (uploadsInFlight(await listJobs())) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
