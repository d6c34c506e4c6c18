// The ids of the videos the queue is still working on (not done, not cancelled). While a file
// transfers, the server already lists its video as 'uploading'; the list composition hides those
// server rows so the queued upload row is the only one (issue 3: exactly one row per video).
import { useMemo } from 'react';
import type { JobSummary } from '../../../upload-queue/queue-client';
import { useUploadJobsView } from './use-upload-jobs';

const NONE: ReadonlySet<string> = new Set();

/** The ids as one string: equal strings leave the list alone while progress messages arrive. */
const idsKey = (jobs: JobSummary[]): string =>
  jobs
    .map((job) => job.videoId)
    .filter((id): id is string => Boolean(id))
    .sort()
    .join('\n');

export function useActiveUploadVideoIds(): ReadonlySet<string> {
  // The whole video list renders with this: it must not render again for each progress message.
  const key = useUploadJobsView(idsKey, '');
  return useMemo(() => (key ? new Set(key.split('\n')) : NONE), [key]);
}
