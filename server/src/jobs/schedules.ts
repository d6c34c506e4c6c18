// Recurring jobs: the one place that says what runs on a schedule and how often. Any worker
// that has the handler queues a due run (schedule-store.ts makes that once per slot across all
// processes); the run itself is an ordinary job, retried and leased like any other.
import {
  CONTENT_HASH_BACKFILL_INTERVAL_MS,
  JOB_PRUNE_INTERVAL_MS,
  RETENTION_CHECK_INTERVAL_MS,
  SEARCH_VACUUM_INTERVAL_MS,
  THROTTLE_PRUNE_INTERVAL_MS,
  UPLOAD_CLEANUP_INTERVAL_MS,
} from '../limits.ts';
import { JobName } from './names.ts';

export interface Schedule {
  name: JobName;
  everyMs: number;
  maxAttempts: number;
}

export const SCHEDULES: readonly Schedule[] = [
  // Expired multipart uploads and orphaned work files.
  { name: JobName.CleanupUploads, everyMs: UPLOAD_CLEANUP_INTERVAL_MS, maxAttempts: 3 },
  // Throttle events that no window looks at any more.
  { name: JobName.PruneThrottle, everyMs: THROTTLE_PRUNE_INTERVAL_MS, maxAttempts: 3 },
  // Finished jobs past their retention, and the e-mail addresses they carry.
  { name: JobName.PruneJobs, everyMs: JOB_PRUNE_INTERVAL_MS, maxAttempts: 3 },
  // The privacy policy's 3 years: a daily run keeps deletion well within its 30 days.
  { name: JobName.DeleteExpiredVideos, everyMs: RETENTION_CHECK_INTERVAL_MS, maxAttempts: 5 },
  // The embedded database's autovacuum, for the keyword index (search/vacuum.ts).
  { name: JobName.VacuumSearch, everyMs: SEARCH_VACUUM_INTERVAL_MS, maxAttempts: 3 },
  // The server's digest of files stored before migration 018: due at once after the first start
  // with it, each run hashes all that are left (jobs/content-hash-backfill.ts).
  {
    name: JobName.BackfillContentHash,
    everyMs: CONTENT_HASH_BACKFILL_INTERVAL_MS,
    maxAttempts: 3,
  },
];
