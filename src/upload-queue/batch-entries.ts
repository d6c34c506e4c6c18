// Pure changes to a batch's entries, shared by the runner (a finished job) and the queue client
// (the user's remove and cancel).
import type { UploadBatch } from './batch-types.ts';
import type { UploadJob } from './job-types.ts';

/** The job left the queue: done (its video is on the server) or cancelled. */
export function recordFinished(batch: UploadBatch, job: UploadJob): UploadBatch {
  return {
    ...batch,
    entries: batch.entries.map((entry) => {
      if (entry.jobId !== job.id) return entry;
      if (job.phase === 'done') return { ...entry, videoId: job.videoId };
      return { ...entry, removed: true };
    }),
  };
}

/** The user removed these jobs' files from the batch (or cancelled it). */
export function markRemoved(batch: UploadBatch, jobIds: ReadonlySet<string>): UploadBatch {
  return {
    ...batch,
    entries: batch.entries.map((entry) =>
      entry.jobId && jobIds.has(entry.jobId) ? { ...entry, removed: true } : entry,
    ),
  };
}
