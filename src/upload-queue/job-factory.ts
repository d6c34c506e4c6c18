// Turns what the upload dialog collected into a job record and its blobs, ready to be written
// before anything is sent.
import { chooseFileKeep } from './file-source.ts';
import { describeFile, type FileLike } from './fingerprint.ts';
import type { CreateVideoPayload, JobBlobs, UploadJob } from './job-types.ts';

export interface PersonInput {
  name: string;
  image: Blob & { name?: string };
}

export interface EnqueueInput {
  payload: CreateVideoPayload;
  people: PersonInput[];
  file: FileLike;
  /** From showOpenFilePicker or a drop's getAsFileSystemHandle(), where the browser has them. */
  fileHandle?: FileSystemFileHandle;
}

export async function buildJob(
  input: EnqueueInput,
  ownerId: string,
  now: number,
  storeBlob?: (size: number) => Promise<boolean>,
): Promise<{ job: UploadJob; blobs: JobBlobs }> {
  const id = crypto.randomUUID();
  const [meta, keep] = await Promise.all([
    describeFile(input.file),
    chooseFileKeep(input.file.size, input.fileHandle, storeBlob),
  ]);
  const job: UploadJob = {
    id,
    ownerId,
    createdAt: now,
    payload: input.payload,
    peopleNames: input.people.map((p) => p.name),
    file: meta,
    fileKeep: keep,
    phase: 'queued',
    hold: 'active',
    bytesDone: 0,
    attempts: 0,
    nextAttemptAt: 0,
    updatedAt: now,
  };
  const blobs: JobBlobs = {
    jobId: id,
    // slice() gives plain Blobs: what every browser (and the tests' Node) can store in IndexedDB.
    peopleImages: input.people.map((p, i) => ({
      blob: p.image.slice(0, p.image.size, p.image.type),
      filename: p.image.name ?? `person-${i + 1}`,
    })),
  };
  if (keep === 'blob') blobs.file = input.file.slice(0, input.file.size, input.file.type);
  if (keep === 'handle' && input.fileHandle) blobs.handle = input.fileHandle;
  return { job, blobs };
}
