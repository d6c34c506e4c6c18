// The 'make-trailer' job handler. The flag shows "being created" from the first attempt (also
// for a trailer queued by the upload's instruction) until the job succeeds or fails for good;
// failed attempts are retried by the queue and the previous trailer stays meanwhile.
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';
import { outputJobHandler } from './output-job.ts';
import { makeTrailer } from './make-trailer.ts';

export const makeTrailerHandler: JobHandler = outputJobHandler(
  JobName.MakeTrailer,
  'trailer',
  makeTrailer,
);
