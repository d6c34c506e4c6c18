// What runs after what: the one place where follow-up jobs are declared. The worker enqueues
// these in the same transaction that marks the finished job done.
import type { Queryable } from '../db/db.ts';
import { hasTrailerInstruction } from '../pipeline/video-store.ts';
import { markCreating } from '../repositories/outputs.ts';
import { JobName } from './names.ts';

export interface FollowUp {
  name: JobName;
  /** Enqueue only when this holds for the video. */
  when?: (q: Queryable, videoId: string) => Promise<boolean>;
  /** Declared ahead of its handler: skipped (not an error) while no handler has that name. */
  ifRegistered?: boolean;
  /** Runs in the same transaction once the job is queued (e.g. to show it on the video). */
  onQueued?: (q: Queryable, videoId: string) => Promise<void>;
}

export const CHAIN: Partial<Record<JobName, readonly FollowUp[]>> = {
  [JobName.AnalyseVideo]: [
    // The upload's trailer shows as being created from the moment the analysis ends, also while
    // it waits behind other jobs (the detail page polls while the flag is set).
    {
      name: JobName.MakeTrailer,
      when: hasTrailerInstruction,
      ifRegistered: true,
      onQueued: (q, videoId) => markCreating(q, 'trailer', videoId),
    },
  ],
};
