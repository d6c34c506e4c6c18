// Every job name the product knows. A job row carries one of these and ids only.
export const JobName = {
  AnalyseVideo: 'analyse-video',
  MakeTrailer: 'make-trailer',
  MakeReport: 'make-report',
  SendMail: 'send-mail',
  /** A mail an anonymous request led to (a reset link): the anonymous lane sends it. */
  SendAnonymousMail: 'send-anonymous-mail',
  SendResetLink: 'send-reset-link',
  CleanupUploads: 'cleanup-uploads',
  PruneThrottle: 'prune-throttle',
  PruneJobs: 'prune-jobs',
  DeleteExpiredVideos: 'delete-expired-videos',
  VacuumSearch: 'vacuum-search',
  /** A video's search documents again after people were named or corrected (issue 30). */
  ReindexVideo: 'reindex-video',
  /** A video's faces described again by the new descriptor (faces/recompute.ts, issue 30). */
  RecomputeFaces: 'recompute-faces',
  /** The server's SHA-256 of files stored before migration 018 (issue 42, content-hash.md). */
  BackfillContentHash: 'backfill-content-hash',
} as const;

export type JobName = (typeof JobName)[keyof typeof JobName];

/** Names a worker cannot start without: the analysis is the product's heart. */
export const REQUIRED_JOBS: readonly JobName[] = [JobName.AnalyseVideo];

/**
 * Short jobs that must not wait behind an hour of video analysis (a signed-in user's code,
 * housekeeping): they run in a lane of their own (lanes.ts).
 */
export const QUICK_JOBS: readonly JobName[] = [
  JobName.SendMail,
  JobName.CleanupUploads,
  JobName.PruneThrottle,
  JobName.PruneJobs,
  JobName.DeleteExpiredVideos,
  JobName.VacuumSearch,
  JobName.ReindexVideo,
];

/**
 * Work anyone can cause without an account (forgot password and its mail): a lane of its own,
 * so a flood of it never delays a signed-in user's mail in the quick lane.
 */
export const ANONYMOUS_JOBS: readonly JobName[] = [
  JobName.SendResetLink,
  JobName.SendAnonymousMail,
];
