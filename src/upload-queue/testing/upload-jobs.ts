// A stored upload job for tests that only care about its state (the update prompt, the worker's
// SKIP_WAITING guard): complete enough for the job store, bytes not included.
import type { UploadJob } from '../job-types.ts';

export function uploadJob(id: string, state: Pick<UploadJob, 'phase' | 'hold'>): UploadJob {
  return {
    id,
    ownerId: '7',
    createdAt: 0,
    payload: {
      filename: `${id}.mp4`,
      video_length: 3,
      video_date: '2024-05-01T10:20:30.000',
      output_language: 'en',
      about_this_video: '',
    },
    peopleNames: [],
    file: { name: `${id}.mp4`, size: 1, lastModified: 0, type: 'video/mp4', edgeHash: '' },
    fileKeep: 'blob',
    bytesDone: 0,
    attempts: 0,
    nextAttemptAt: 0,
    updatedAt: 0,
    ...state,
  };
}
