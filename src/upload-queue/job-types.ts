// The upload job as stored in IndexedDB, and the messages the queue sends to pages.

/** Milestones, each reached only after its side effect succeeded on the server. */
export type JobPhase =
  'queued' | 'created' | 'people-uploaded' | 'transferring' | 'completing' | 'status-sent' | 'done';

/** Why a job is not moving right now; 'active' means it is runnable. */
export type JobHold =
  | 'active'
  | 'waiting-retry'
  | 'offline'
  | 'waiting-auth'
  | 'needs-file'
  | 'paused'
  | 'failed'
  | 'cancelled';

/** What pages see: the phase while active, otherwise the hold. */
export type JobState = JobPhase | Exclude<JobHold, 'active'>;

export interface CreateVideoPayload {
  filename: string;
  /** Seconds. */
  video_length: number;
  /** Local "YYYY-MM-DDTHH:mm:ss.SSS". */
  video_date: string;
  output_language: string;
  about_this_video: string;
  trailer_instruction?: string;
  /** Bytes; lets the server answer "already in the archive?" by size first. */
  file_size?: number;
  /** Hex SHA-256, when it was computed before sending (a file whose size matched one there). */
  content_sha256?: string;
  /** The user asked to upload it although the archive has the same bytes. */
  allow_duplicate?: boolean;
}

export interface FileMeta {
  name: string;
  size: number;
  lastModified: number;
  type: string;
  /** Hex SHA-256 of the first and last MiB (see fingerprint.ts). */
  edgeHash: string;
}

/** Where the runner finds the bytes; the Blob/handle itself lives in the `blobs` store. */
export type FileKeep = 'blob' | 'handle' | 'none';

export interface SignedForm {
  url: string;
  fields: Record<string, string>;
}

export interface MultipartState {
  uploadId: string;
  partSize: number;
  key: string;
  /** Parts the server confirmed, by part number. */
  parts: { partNumber: number; etag: string; size: number }[];
  completed: boolean;
  /** Started to replace one the server had dropped (see forgetGoneUpload in job-steps.ts). */
  renewal?: boolean;
  /** Its parts were listed again once after `complete` found an ETag changed (job-steps.ts). */
  relisted?: boolean;
}

export interface UploadJob {
  id: string;
  /** The signed-in user who queued it; only that user's token runs it. */
  ownerId: string;
  createdAt: number;
  /** The batch it was queued with (batch-types.ts); none for a single upload. */
  batchId?: string;
  payload: CreateVideoPayload;
  peopleNames: string[];
  file: FileMeta;
  fileKeep: FileKeep;
  phase: JobPhase;
  hold: JobHold;
  videoId?: string;
  form?: SignedForm;
  transferMode?: 'form' | 'multipart';
  multipart?: MultipartState;
  /** Bytes confirmed on the server. */
  bytesDone: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
  /** Cancel asked; the runner still owes the server an abort/delete. */
  cancelPending?: boolean;
  updatedAt: number;
}

/** Blobs kept apart from the job so listing jobs stays cheap. */
export interface JobBlobs {
  jobId: string;
  peopleImages: { blob: Blob; filename: string }[];
  file?: Blob;
  handle?: FileSystemFileHandle;
}

export interface JobMessage {
  type: 'job';
  jobId: string;
  state: JobState;
  /** 0..1 of the file's bytes on the server. */
  progress: number;
  /** Set while transferring in parts. */
  part?: { index: number; count: number };
  videoId?: string;
  error?: string;
}

export const TERMINAL_HOLDS: readonly JobHold[] = ['failed', 'cancelled'];

/**
 * Done, or cancelled with the server's clean-up made: nothing is owed to anyone any more. Its
 * last state went out to every open page when it was reached; the record (and any blob) goes.
 */
export function isFinished(job: Pick<UploadJob, 'phase' | 'hold' | 'cancelPending'>): boolean {
  if (job.cancelPending) return false;
  return job.phase === 'done' || job.hold === 'cancelled';
}

export function jobState(job: Pick<UploadJob, 'phase' | 'hold'>): JobState {
  return job.hold === 'active' ? job.phase : job.hold;
}

export function jobProgress(job: Pick<UploadJob, 'bytesDone' | 'file' | 'phase'>): number {
  if (job.phase === 'completing' || job.phase === 'status-sent' || job.phase === 'done') return 1;
  return job.file.size > 0 ? Math.min(1, job.bytesDone / job.file.size) : 0;
}

export function toJobMessage(job: UploadJob, inFlightBytes = 0): JobMessage {
  const progress =
    job.file.size > 0 && job.phase === 'transferring'
      ? Math.min(1, (job.bytesDone + inFlightBytes) / job.file.size)
      : jobProgress(job);
  const message: JobMessage = { type: 'job', jobId: job.id, state: jobState(job), progress };
  if (job.videoId) message.videoId = job.videoId;
  if (job.lastError && job.hold !== 'active') message.error = job.lastError;
  if (job.multipart && job.phase === 'transferring') {
    const count = Math.ceil(job.file.size / job.multipart.partSize);
    message.part = { index: Math.min(count, job.multipart.parts.length + 1), count };
  }
  return message;
}
