// What runs after what: the one place where follow-up jobs are declared. The worker enqueues
// these in the same transaction that marks the finished job done.
import type { Queryable } from '../db/db.ts';
import { hasTrailerInstruction } from '../pipeline/video-store.ts';
import { JobName } from './names.ts';

export interface FollowUp {
  name: JobName;
  /** Enqueue only when this holds for the video. */
  when?: (q: Queryable, videoId: string) => Promise<boolean>;
  /** Declared ahead of its handler: skipped (not an error) while no handler has that name. */
  ifRegistered?: boolean;
}

export const CHAIN: Partial<Record<JobName, readonly FollowUp[]>> = {
  [JobName.AnalyseVideo]: [
    { name: JobName.MakeTrailer, when: hasTrailerInstruction, ifRegistered: true },
  ],
};
