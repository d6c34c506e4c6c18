// The ids of the videos the queue is still working on (not done, not cancelled). While a file
// transfers, the server already lists its video as 'uploading'; the list composition hides those
// server rows so the queued upload row is the only one (issue 3: exactly one row per video).
import { useMemo } from 'react';
import { useUploadJobs } from './use-upload-jobs';

const NONE: ReadonlySet<string> = new Set();

export function useActiveUploadVideoIds(): ReadonlySet<string> {
  const jobs = useUploadJobs();
  // Progress messages arrive a few times a second: the set keeps its identity until the ids change.
  const key = jobs
    .map((job) => job.videoId)
    .filter((id): id is string => Boolean(id))
    .sort()
    .join('\n');
  return useMemo(() => (key ? new Set(key.split('\n')) : NONE), [key]);
}
