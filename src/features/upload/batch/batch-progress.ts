// Where a batch stands, from what the queue and the server know: each file's state, the counts
// the panel shows, the bytes sent. Pure: the panel renders it, the tests check it.
import type { BatchEntry, UploadBatch } from '../../../upload-queue/batch-types';
import type { JobSummary } from '../../../upload-queue/queue-client';
import type { VideoStatus } from '../api';

export type BatchFileState =
  'left-out' | 'waiting' | 'paused' | 'uploading' | 'analysing' | 'done' | 'failed' | 'removed';

export interface BatchFile {
  entry: BatchEntry;
  state: BatchFileState;
  /** 0..1 of its bytes sent. */
  progress: number;
  /** The server's video, once it has one. */
  videoId?: string;
  /** Why it failed: the queue's words, or the analysis' failure code. */
  error?: string;
  failureCode?: string | null;
  job?: JobSummary;
}

const WAITING: JobSummary['state'][] = [
  'queued',
  'waiting-retry',
  'offline',
  'waiting-auth',
  'needs-file',
];
const SENT: JobSummary['state'][] = ['status-sent', 'done'];

function fromServer(
  entry: BatchEntry,
  videoId: string,
  status: VideoStatus | undefined,
): BatchFile {
  if (status?.status === 'completed') return { entry, state: 'done', progress: 1, videoId };
  if (status?.status === 'failed')
    return { entry, state: 'failed', progress: 1, videoId, failureCode: status.failureCode };
  return { entry, state: 'analysing', progress: 1, videoId };
}

export function batchFile(
  entry: BatchEntry,
  job: JobSummary | undefined,
  statuses: ReadonlyMap<string, VideoStatus>,
): BatchFile {
  if (entry.skipped) return { entry, state: 'left-out', progress: 0 };
  if (entry.removed) return { entry, state: 'removed', progress: 0 };
  const videoId = entry.videoId ?? (job && SENT.includes(job.state) ? job.videoId : undefined);
  if (videoId) return fromServer(entry, videoId, statuses.get(videoId));
  // Not removed, yet no job: it finished a moment ago and its batch is about to hear of it.
  if (!job) return { entry, state: 'analysing', progress: 1 };
  const base = { entry, progress: job.progress, job };
  if (job.state === 'failed')
    return { ...base, state: 'failed', ...(job.error ? { error: job.error } : {}) };
  if (job.state === 'cancelled') return { ...base, state: 'removed' };
  if (job.state === 'paused') return { ...base, state: 'paused' };
  if (WAITING.includes(job.state)) return { ...base, state: 'waiting' };
  return { ...base, state: 'uploading' };
}

export interface BatchProgress {
  files: BatchFile[];
  counts: Record<BatchFileState, number>;
  /** Bytes of the files to upload, and of those sent. */
  totalBytes: number;
  sentBytes: number;
  /** Files not yet sent and not removed: pause, resume and cancel have something to act on. */
  open: number;
  /** Some files wait for the user (paused). */
  paused: boolean;
  /** Nothing left to send or analyse: the panel may be closed. */
  finished: boolean;
}

export function batchProgress(
  batch: UploadBatch,
  jobs: ReadonlyMap<string, JobSummary>,
  statuses: ReadonlyMap<string, VideoStatus>,
): BatchProgress {
  const counts: Record<BatchFileState, number> = {
    'left-out': 0,
    waiting: 0,
    paused: 0,
    uploading: 0,
    analysing: 0,
    done: 0,
    failed: 0,
    removed: 0,
  };
  let totalBytes = 0;
  let sentBytes = 0;
  const files = batch.entries.map((entry) => {
    const file = batchFile(entry, entry.jobId ? jobs.get(entry.jobId) : undefined, statuses);
    counts[file.state] += 1;
    if (file.state !== 'left-out' && file.state !== 'removed') {
      totalBytes += entry.size;
      sentBytes += entry.size * file.progress;
    }
    return file;
  });
  const open = counts.waiting + counts.paused + counts.uploading;
  return {
    files,
    counts,
    totalBytes,
    sentBytes,
    open,
    paused: counts.paused > 0,
    finished: open === 0 && counts.analysing === 0,
  };
}

/** Video ids whose analysis is still to be watched. */
export function idsToWatch(progress: BatchProgress): string[] {
  return progress.files
    .filter((file) => file.state === 'analysing' && file.videoId)
    .map((file) => file.videoId!);
}

interface Sample {
  at: number;
  sent: number;
}

/** Seconds left at the rate of the last samples (sent bytes over time); undefined while unknown. */
export function secondsLeft(samples: Sample[], totalBytes: number): number | undefined {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last || last.at - first.at < 2_000 || last.sent <= first.sent) return undefined;
  const rate = (last.sent - first.sent) / ((last.at - first.at) / 1000);
  return Math.max(0, (totalBytes - last.sent) / rate);
}
