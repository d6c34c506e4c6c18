// Every job name the product knows. A job row carries one of these and ids only.
export const JobName = {
  AnalyseVideo: 'analyse-video',
  MakeTrailer: 'make-trailer',
  MakeReport: 'make-report',
  SendMail: 'send-mail',
  SendResetLink: 'send-reset-link',
  CleanupUploads: 'cleanup-uploads',
  PruneThrottle: 'prune-throttle',
  DeleteExpiredVideos: 'delete-expired-videos',
  VacuumSearch: 'vacuum-search',
} as const;

export type JobName = (typeof JobName)[keyof typeof JobName];

/** Names a worker cannot start without: the analysis is the product's heart. */
export const REQUIRED_JOBS: readonly JobName[] = [JobName.AnalyseVideo];

/**
 * Short jobs that must not wait behind an hour of video analysis (a reset mail, housekeeping):
 * they run in a lane of their own (lanes.ts).
 */
export const QUICK_JOBS: readonly JobName[] = [
  JobName.SendMail,
  JobName.SendResetLink,
  JobName.CleanupUploads,
  JobName.PruneThrottle,
  JobName.DeleteExpiredVideos,
  JobName.VacuumSearch,
];
