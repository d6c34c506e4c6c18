// A batch: the files chosen together in the upload dialog (many files or a folder). Each accepted
// file is its own job; the batch remembers every file, the ones left out too, so its panel can
// say what became of each after the jobs themselves have left the queue.

/** Why a chosen file was not queued. */
export type BatchSkipReason = 'not-a-video' | 'too-large' | 'unreadable' | 'in-archive';

export interface ArchivedVideo {
  id: string;
  title: string | null;
  filename: string;
}

export interface BatchEntry {
  /** The file's path inside the chosen folder, or its name. */
  path: string;
  size: number;
  /** The job that uploads it; none for a file left out. */
  jobId?: string;
  skipped?: BatchSkipReason;
  /** The archive's video with the same bytes (skipped as in-archive). */
  inArchive?: ArchivedVideo;
  /** Its video on the server, once the upload finished. */
  videoId?: string;
  /** Removed by the user before it was sent, or cancelled with the batch. */
  removed?: boolean;
}

export interface UploadBatch {
  id: string;
  ownerId: string;
  createdAt: number;
  entries: BatchEntry[];
}

/** The blobs row holding a batch's people images once, for all of its jobs. */
export const batchBlobsKey = (batchId: string): string => `batch:${batchId}`;
