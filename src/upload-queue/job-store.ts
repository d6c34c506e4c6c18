// The queue's IndexedDB: jobs, their blobs, and the runner lease used where Web Locks are
// missing (who is signed in lives in src/lib/session-db.ts). Every write is its own transaction so a killed
// tab or worker leaves the last completed write behind, never half of one.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { UploadBatch } from './batch-types.ts';
import type { JobBlobs, UploadJob } from './job-types.ts';

interface Lease {
  owner: string;
  expiresAt: number;
}

interface QueueSchema extends DBSchema {
  jobs: { key: string; value: UploadJob; indexes: { byOwner: string } };
  blobs: { key: string; value: JobBlobs };
  lease: { key: 'runner'; value: Lease };
  batches: { key: string; value: UploadBatch };
}

export const QUEUE_DB_NAME = 'upload-queue';

export interface JobStore {
  put(job: UploadJob): Promise<void>;
  get(id: string): Promise<UploadJob | undefined>;
  list(): Promise<UploadJob[]>;
  /**
   * Read-modify-write in one transaction, so the runner's progress and a page's cancel or retry
   * never overwrite each other. Answers the stored result, or undefined if the job is gone.
   */
  update(id: string, mutate: (job: UploadJob) => UploadJob): Promise<UploadJob | undefined>;
  putBlobs(blobs: JobBlobs): Promise<void>;
  getBlobs(jobId: string): Promise<JobBlobs | undefined>;
  deleteBlobs(jobId: string): Promise<void>;
  /** Writes a job and its blobs in one transaction (used when queuing). */
  add(job: UploadJob, blobs: JobBlobs): Promise<void>;
  /** Removes a job and its blobs in one transaction. */
  remove(jobId: string): Promise<void>;
  /** Takes or renews the lease if it is free, expired or already ours. */
  tryLease(owner: string, now: number, ttlMs: number): Promise<boolean>;
  releaseLease(owner: string): Promise<void>;
  /**
   * Writes a batch, its jobs (with their blobs) and the blobs all of them share (the people images)
   * in one transaction: all queued or none.
   */
  addBatch(
    batch: UploadBatch,
    jobs: { job: UploadJob; blobs: JobBlobs }[],
    shared: JobBlobs,
  ): Promise<void>;
  getBatch(id: string): Promise<UploadBatch | undefined>;
  listBatches(): Promise<UploadBatch[]>;
  /** Read-modify-write of one batch in one transaction (as `update` for jobs). */
  updateBatch(
    id: string,
    mutate: (batch: UploadBatch) => UploadBatch,
  ): Promise<UploadBatch | undefined>;
  removeBatch(id: string): Promise<void>;
  close(): void;
}

/** One record read, changed and written back in one transaction (jobs and batches alike). */
async function readModifyWrite<Name extends 'jobs' | 'batches'>(
  db: IDBPDatabase<QueueSchema>,
  name: Name,
  id: string,
  mutate: (value: QueueSchema[Name]['value']) => QueueSchema[Name]['value'],
): Promise<QueueSchema[Name]['value'] | undefined> {
  const tx = db.transaction(name, 'readwrite');
  const current = await tx.store.get(id);
  const next = current ? mutate(current) : undefined;
  if (next) await tx.store.put(next);
  await tx.done;
  return next;
}

export async function openJobStore(name = QUEUE_DB_NAME): Promise<JobStore> {
  const db: IDBPDatabase<QueueSchema> = await openDB<QueueSchema>(name, 3, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        const jobs = database.createObjectStore('jobs', { keyPath: 'id' });
        jobs.createIndex('byOwner', 'ownerId');
        database.createObjectStore('blobs', { keyPath: 'jobId' });
        database.createObjectStore('lease');
      }
      if (oldVersion < 3) database.createObjectStore('batches', { keyPath: 'id' });
      // Version 1 kept the token here too; it moved to its own database (session-db.ts), and
      // pages hand it over again on their next load.
      if (database.objectStoreNames.contains('auth' as never)) {
        database.deleteObjectStore('auth' as never);
      }
    },
  });

  return {
    async put(job) {
      await db.put('jobs', job);
    },
    get: (id) => db.get('jobs', id),
    async list() {
      const jobs = await db.getAll('jobs');
      return jobs.sort((a, b) => a.createdAt - b.createdAt);
    },
    update: (id, mutate) => readModifyWrite(db, 'jobs', id, mutate),
    async putBlobs(blobs) {
      await db.put('blobs', blobs);
    },
    getBlobs: (jobId) => db.get('blobs', jobId),
    async deleteBlobs(jobId) {
      await db.delete('blobs', jobId);
    },
    async add(job, blobs) {
      const tx = db.transaction(['jobs', 'blobs'], 'readwrite');
      await Promise.all([
        tx.objectStore('jobs').put(job),
        tx.objectStore('blobs').put(blobs),
        tx.done,
      ]);
    },
    async remove(jobId) {
      const tx = db.transaction(['jobs', 'blobs'], 'readwrite');
      await Promise.all([
        tx.objectStore('jobs').delete(jobId),
        tx.objectStore('blobs').delete(jobId),
        tx.done,
      ]);
    },
    async tryLease(owner, now, ttlMs) {
      const tx = db.transaction('lease', 'readwrite');
      const current = await tx.store.get('runner');
      const free = !current || current.expiresAt <= now || current.owner === owner;
      if (free) await tx.store.put({ owner, expiresAt: now + ttlMs }, 'runner');
      await tx.done;
      return free;
    },
    async releaseLease(owner) {
      const tx = db.transaction('lease', 'readwrite');
      const current = await tx.store.get('runner');
      if (current?.owner === owner) await tx.store.delete('runner');
      await tx.done;
    },
    async addBatch(batch, jobs, shared) {
      const tx = db.transaction(['batches', 'jobs', 'blobs'], 'readwrite');
      await Promise.all([
        tx.objectStore('batches').put(batch),
        tx.objectStore('blobs').put(shared),
        ...jobs.flatMap(({ job, blobs }) => [
          tx.objectStore('jobs').put(job),
          tx.objectStore('blobs').put(blobs),
        ]),
        tx.done,
      ]);
    },
    getBatch: (id) => db.get('batches', id),
    async listBatches() {
      const batches = await db.getAll('batches');
      return batches.sort((a, b) => a.createdAt - b.createdAt);
    },
    updateBatch: (id, mutate) => readModifyWrite(db, 'batches', id, mutate),
    async removeBatch(id) {
      await db.delete('batches', id);
    },
    close: () => db.close(),
  };
}
