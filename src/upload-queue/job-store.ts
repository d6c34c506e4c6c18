// The queue's IndexedDB: jobs, their blobs, the auth token the service worker needs, and the
// runner lease used where Web Locks are missing. Every write is its own transaction so a killed
// tab or worker leaves the last completed write behind, never half of one.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { JobBlobs, UploadJob } from './job-types.ts';

export interface StoredAuth {
  token: string;
  userId: string;
  /** The same user's tokens before the last refreshes: requests made with them may still run. */
  previousTokens?: string[];
}

/**
 * The auth record after a page hands over `token`: a refresh of the same user keeps the last few
 * tokens, so requests still on their way with them are known as this user's (offline cache).
 */
export function rotatedAuth(
  before: StoredAuth | undefined,
  token: string,
  userId: string,
): StoredAuth {
  const kept = before?.userId === userId ? (before.previousTokens ?? []) : [];
  const previousTokens =
    before?.userId === userId && before.token !== token
      ? [before.token, ...kept].slice(0, 4)
      : kept;
  return { token, userId, previousTokens };
}

interface Lease {
  owner: string;
  expiresAt: number;
}

interface QueueSchema extends DBSchema {
  jobs: { key: string; value: UploadJob; indexes: { byOwner: string } };
  blobs: { key: string; value: JobBlobs };
  auth: { key: 'current'; value: StoredAuth };
  lease: { key: 'runner'; value: Lease };
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
  getAuth(): Promise<StoredAuth | undefined>;
  setAuth(auth: StoredAuth | undefined): Promise<void>;
  /** A page hands over `token` (sign-in or refresh): rotatedAuth in one transaction. */
  handOverAuth(token: string, userId: string): Promise<void>;
  /**
   * Forgets the token if it is still `token` (refused by the server), in one transaction: a
   * newer token handed over meanwhile is never lost. Answers whether it was forgotten.
   */
  forgetAuthIf(token: string): Promise<boolean>;
  /** Takes or renews the lease if it is free, expired or already ours. */
  tryLease(owner: string, now: number, ttlMs: number): Promise<boolean>;
  releaseLease(owner: string): Promise<void>;
  close(): void;
}

export async function openJobStore(name = QUEUE_DB_NAME): Promise<JobStore> {
  const db: IDBPDatabase<QueueSchema> = await openDB<QueueSchema>(name, 1, {
    upgrade(database) {
      const jobs = database.createObjectStore('jobs', { keyPath: 'id' });
      jobs.createIndex('byOwner', 'ownerId');
      database.createObjectStore('blobs', { keyPath: 'jobId' });
      database.createObjectStore('auth');
      database.createObjectStore('lease');
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
    async update(id, mutate) {
      const tx = db.transaction('jobs', 'readwrite');
      const current = await tx.store.get(id);
      const next = current ? mutate(current) : undefined;
      if (next) await tx.store.put(next);
      await tx.done;
      return next;
    },
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
    getAuth: () => db.get('auth', 'current'),
    async setAuth(auth) {
      if (auth) await db.put('auth', auth, 'current');
      else await db.delete('auth', 'current');
    },
    async handOverAuth(token, userId) {
      const tx = db.transaction('auth', 'readwrite');
      const before = await tx.store.get('current');
      await tx.store.put(rotatedAuth(before, token, userId), 'current');
      await tx.done;
    },
    async forgetAuthIf(token) {
      const tx = db.transaction('auth', 'readwrite');
      const current = await tx.store.get('current');
      const same = current?.token === token;
      if (same) await tx.store.delete('current');
      await tx.done;
      return same;
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
    close: () => db.close(),
  };
}
