// Every job handler of the product, by name. Add a line here for a new job; the worker refuses
// to start when a name has two handlers or a required job has none (registry.ts).
import { sendResetLinkHandler } from '../accounts/background.ts';
import { recomputeFacesHandler } from '../faces/recompute.ts';
import { sendAnonymousMailHandler, sendMailHandler } from '../mail/send-mail-job.ts';
import { reindexVideoHandler } from '../people/reindex.ts';
import { analyseVideoHandler } from '../pipeline/analyse-video.ts';
import { makeReportHandler } from '../report/handler.ts';
import { deleteExpiredVideosHandler } from '../retention/delete-expired.ts';
import { vacuumSearchHandler } from '../search/vacuum.ts';
import { makeTrailerHandler } from '../trailer/handler.ts';
import { backfillContentHashHandler } from './content-hash-backfill.ts';
import { cleanupUploadsHandler, pruneJobsHandler, pruneThrottleHandler } from './housekeeping.ts';
import type { JobHandler } from './registry.ts';

export function productHandlers(): JobHandler[] {
  return [
    analyseVideoHandler,
    makeTrailerHandler,
    makeReportHandler,
    sendMailHandler,
    sendAnonymousMailHandler,
    sendResetLinkHandler,
    cleanupUploadsHandler,
    pruneThrottleHandler,
    pruneJobsHandler,
    deleteExpiredVideosHandler,
    vacuumSearchHandler,
    reindexVideoHandler,
    recomputeFacesHandler,
    backfillContentHashHandler,
  ];
}
