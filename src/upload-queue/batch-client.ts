// The upload queue's batch API for pages: many files queued at once, and the batch's controls.
//
//   enqueueBatch(input) -> id     every accepted file becomes its own job; the batch and all its
//                                 jobs are written in one transaction before anything is sent
//   listBatches()                 the signed-in user's batches, oldest first
//   pauseBatch / resumeBatch      holds every unsent file (and stops the transfers in flight)
//   retryFailed(batchId)          the failed files go again
//   removeFromBatch(jobId)        a waiting file leaves the batch
//   cancelBatch / dismissBatch    cancels what is left; forgets a finished batch
import { BATCH_MAX_FILES } from '../config/limits.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { markRemoved } from './batch-entries.ts';
import { batchBlobsKey, type BatchEntry, type UploadBatch } from './batch-types.ts';
import { canStoreBlob } from './file-source.ts';
import type { FileLike } from './fingerprint.ts';
import { buildJob, type PersonInput } from './job-factory.ts';
import {
  toJobMessage,
  type CreateVideoPayload,
  type JobBlobs,
  type UploadJob,
} from './job-types.ts';
import { broadcast, cancel, change, handOver, queueStore, wakeQueue } from './queue-client.ts';

export type { BatchEntry, UploadBatch } from './batch-types.ts';

/** What the dialog's step 1 gives the whole batch. */
export type BatchDetails = Omit<CreateVideoPayload, 'filename' | 'video_length' | 'video_date'>;

export interface BatchFileInput {
  file: FileLike;
  /** Its path inside the chosen folder, or its name. */
  path: string;
  durationSeconds: number;
  videoDate: string;
  handle?: FileSystemFileHandle;
  contentSha256?: string;
  allowDuplicate?: boolean;
}

export interface BatchInput {
  details: BatchDetails;
  people: PersonInput[];
  files: BatchFileInput[];
  /** Chosen files that are not queued, and why (listed in the batch's panel). */
  skipped: BatchEntry[];
}

export class BatchTooLargeError extends Error {
  override name = 'BatchTooLargeError';
}

async function signedInUserId(): Promise<string> {
  const auth = await (await openSessionDb()).getAuth();
  if (!auth) throw new Error('Sign in before uploading.');
  return auth.userId;
}

/**
 * Copies into IndexedDB while the quota has room for this file and those before it in the batch.
 * Chromium keeps a picked file as a reference, so this costs no space there.
 */
function batchBlobBudget(): (size: number) => Promise<boolean> {
  let reserved = 0;
  return async (size) => {
    const ok = await canStoreBlob(reserved + size);
    if (ok) reserved += size;
    return ok;
  };
}

export async function enqueueBatch(input: BatchInput): Promise<string> {
  const total = input.files.length + input.skipped.length;
  if (total > BATCH_MAX_FILES) throw new BatchTooLargeError(`${total} files`);
  const ownerId = await signedInUserId();
  const store = await queueStore();
  const batchId = crypto.randomUUID();
  const now = Date.now();
  const storeBlob = batchBlobBudget();
  const built: { job: UploadJob; blobs: JobBlobs }[] = [];
  const entries: BatchEntry[] = [...input.skipped];
  for (const [index, item] of input.files.entries()) {
    const payload: CreateVideoPayload = {
      ...input.details,
      filename: item.file.name,
      video_length: item.durationSeconds,
      video_date: item.videoDate,
      file_size: item.file.size,
    };
    if (item.contentSha256) payload.content_sha256 = item.contentSha256;
    if (item.allowDuplicate) payload.allow_duplicate = true;
    // createdAt keeps the chosen order (the runner takes the oldest runnable job first).
    const { job, blobs } = await buildJob(
      { payload, people: [], file: item.file, ...(item.handle ? { fileHandle: item.handle } : {}) },
      ownerId,
      now + index,
      storeBlob,
    );
    job.batchId = batchId;
    job.peopleNames = input.people.map((p) => p.name);
    built.push({ job, blobs });
    entries.push({ path: item.path, size: item.file.size, jobId: job.id });
  }
  const batch: UploadBatch = { id: batchId, ownerId, createdAt: now, entries };
  const peopleRow: JobBlobs = {
    jobId: batchBlobsKey(batchId),
    peopleImages: input.people.map((p, i) => ({
      blob: p.image.slice(0, p.image.size, p.image.type),
      filename: p.image.name ?? `person-${i + 1}`,
    })),
  };
  await store.addBatch(batch, built, peopleRow);
  built.forEach(({ job }, i) => {
    if (job.fileKeep !== 'blob') handOver(job.id, input.files[i]!.file);
    broadcast(toJobMessage(job));
  });
  await wakeQueue();
  return batchId;
}

export async function listBatches(): Promise<UploadBatch[]> {
  const ownerId = (await (await openSessionDb()).getAuth())?.userId;
  const batches = await (await queueStore()).listBatches();
  return batches.filter((b) => b.ownerId === ownerId);
}

async function batchJobs(batchId: string): Promise<UploadJob[]> {
  const jobs = await (await queueStore()).list();
  return jobs.filter((job) => job.batchId === batchId);
}

const UNSENT_HOLDS: UploadJob['hold'][] = ['active', 'waiting-retry', 'offline', 'waiting-auth'];

export async function pauseBatch(batchId: string): Promise<void> {
  for (const job of await batchJobs(batchId)) {
    if (job.phase === 'status-sent' || job.phase === 'done') continue;
    const saved = await change(job.id, (j) =>
      UNSENT_HOLDS.includes(j.hold) && !j.cancelPending ? { ...j, hold: 'paused' } : j,
    );
    if (saved?.hold === 'paused') broadcast({ type: 'pause', jobId: job.id });
  }
}

export async function resumeBatch(batchId: string): Promise<void> {
  for (const job of await batchJobs(batchId)) {
    await change(job.id, (j) =>
      j.hold === 'paused' ? { ...j, hold: 'active', attempts: 0, nextAttemptAt: 0 } : j,
    );
  }
  await wakeQueue();
}

export async function retryFailed(batchId: string): Promise<void> {
  for (const job of await batchJobs(batchId)) {
    await change(job.id, (j) =>
      j.hold === 'failed'
        ? { ...j, hold: 'active', attempts: 0, nextAttemptAt: 0, lastError: undefined }
        : j,
    );
  }
  await wakeQueue();
}

/** A waiting file leaves the batch (its job is cancelled; nothing of it stays on the server). */
export async function removeFromBatch(batchId: string, jobId: string): Promise<void> {
  await (await queueStore()).updateBatch(batchId, (b) => markRemoved(b, new Set([jobId])));
  await cancel(jobId);
}

/** Cancels every file not yet uploaded; the ones already sent stay in the archive. */
export async function cancelBatch(batchId: string): Promise<void> {
  const open = (await batchJobs(batchId)).filter(
    (job) => job.phase !== 'status-sent' && job.phase !== 'done',
  );
  await (
    await queueStore()
  ).updateBatch(batchId, (b) => markRemoved(b, new Set(open.map((j) => j.id))));
  for (const job of open) await cancel(job.id);
}

/** Forgets a batch whose files are all sent or left out (its panel closes). */
export async function dismissBatch(batchId: string): Promise<void> {
  const store = await queueStore();
  await store.removeBatch(batchId);
  await store.deleteBlobs(batchBlobsKey(batchId));
}
