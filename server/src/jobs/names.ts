// Every job name the product knows. A job row carries one of these and ids only.
export const JobName = {
  AnalyseVideo: 'analyse-video',
  MakeTrailer: 'make-trailer',
  MakeReport: 'make-report',
} as const;

export type JobName = (typeof JobName)[keyof typeof JobName];

/** Names a worker cannot start without: the analysis is the product's heart. */
export const REQUIRED_JOBS: readonly JobName[] = [JobName.AnalyseVideo];
