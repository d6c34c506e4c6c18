// The upload queue's public API for pages (the upload dialog and the video list build on it).
//
//   startUploadQueue()            once at start-up: wakes the runner on online/visibility, and
//                                 whenever the worker's run ends with work left (see below)
//   setQueueAuth(token, userId)   after login and each token refresh; clearQueueAuth() on logout
//                                 (and delete user caches: others' on sign-in, all on logout)
//   enqueueUpload(input) -> id    writes the job (and its blobs) before anything is sent
//   subscribe(listener)           JobMessage {jobId, state, progress, part?, videoId?, error?}
//   listJobs()                    the signed-in user's jobs, newest last
//   retry(id) / cancel(id)        user actions on a failed or running upload
//   provideFile(id, file)         answers 'needs-file'; refuses a different file
//
// Where a service worker controls the page it runs the queue (and keeps going with no page
// open); otherwise this page runs it. Either way the Web Lock keeps it to one runner.
// A browser ends a worker's event after a few minutes, so each of its runs is bounded; an open
// page is its alarm clock: the worker names when work is due next, the page wakes it then. A
// file the page handed over lives in the worker's memory only: should the worker be stopped
// anyway, the job asks for its file again and this page gives it back at once.
import { QUEUE_HEARTBEAT_MS, UPLOAD_QUEUE_SYNC_TAG } from '../config/upload-queue.ts';
import { deleteUserCaches } from '../sw/delete-user-caches.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { canStoreBlob, rememberSessionFile, sessionFile } from './file-source.ts';
import { matchFile, type FileLike, type FileMismatch } from './fingerprint.ts';
import { buildJob, type EnqueueInput } from './job-factory.ts';
import { jobState, toJobMessage, type JobMessage, type UploadJob } from './job-types.ts';
import { openQueueChannel } from './progress-channel.ts';
import { createQueueHost, type ChannelMessage, type QueueHost } from './queue-host.ts';
import { uploadsInFlight } from './upload-activity.ts';

export type { EnqueueInput, PersonInput } from './job-factory.ts';
export type { JobMessage, JobState } from './job-types.ts';

/** Messages the page sends to the service worker (see src/sw/upload-queue-sw.ts). */
export type QueueWorkerMessage =
  | { type: 'AUTH'; token: string; userId: string }
  | { type: 'LOGOUT' }
  | { type: 'UPLOAD_QUEUE_WAKE' }
  | { type: 'PROVIDE_FILE'; jobId: string; file: Blob };

/** The worker's word to its pages: its run ended with work due at `at` (epoch ms). */
export interface QueueContinueMessage {
  type: 'UPLOAD_QUEUE_CONTINUE';
  at: number;
}

export interface JobSummary extends JobMessage {
  filename: string;
  size: number;
  createdAt: number;
  /** The batch it was queued with; its panel shows it, not a row of its own. */
  batchId?: string;
}

let host: QueueHost | undefined;
const queueHost = (): QueueHost => (host ??= createQueueHost());

/** The queue's IndexedDB (batch-client.ts works on it too). */
export const queueStore = (): ReturnType<QueueHost['store']> => queueHost().store();

function controller(): ServiceWorker | undefined {
  return (typeof navigator !== 'undefined' && navigator.serviceWorker?.controller) || undefined;
}

function postToWorker(message: QueueWorkerMessage): boolean {
  const worker = controller();
  worker?.postMessage(message);
  return worker !== undefined;
}

/** Asks whoever runs the queue to look at it now. */
export async function wakeQueue(): Promise<void> {
  if (postToWorker({ type: 'UPLOAD_QUEUE_WAKE' })) {
    // Background Sync lets the worker finish after the last page closes, when the browser has it.
    const registration = await navigator.serviceWorker.ready;
    const sync = (
      registration as ServiceWorkerRegistration & {
        sync?: { register(tag: string): Promise<void> };
      }
    ).sync;
    await sync?.register(UPLOAD_QUEUE_SYNC_TAG).catch(() => undefined);
    return;
  }
  void queueHost().wake();
}

interface EventSource {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** Page-only globals, typed here because this module also compiles for workers (no DOM lib). */
const page = globalThis as unknown as EventSource & {
  document: EventSource & { visibilityState: string };
};

/** Call once when the app starts: wakes the runner now, when back online and when shown again. */
export function startUploadQueue(): () => void {
  const onOnline = (): void => void wakeQueue();
  const onVisible = (): void => {
    if (page.document.visibilityState === 'visible') void wakeQueue();
  };
  page.addEventListener('online', onOnline);
  page.document.addEventListener('visibilitychange', onVisible);
  const stopContinuing = continueWorkerRuns();
  const stopGivingFiles = giveBackSessionFiles();
  const stopHeartbeat = driveStalledWork();
  void wakeQueue();
  return () => {
    page.removeEventListener('online', onOnline);
    page.document.removeEventListener('visibilitychange', onVisible);
    stopContinuing();
    stopGivingFiles();
    stopHeartbeat();
  };
}

/**
 * The queue drives itself, not only on page events: while an upload is runnable, whoever runs the
 * queue is woken every heartbeat. A run already going just goes on; a runner that was stopped
 * (a reload mid-transfer, a closed tab, a worker the browser ended) is replaced within one beat.
 */
function driveStalledWork(): () => void {
  const timer = setInterval(() => {
    void queueHost()
      .store()
      .then((store) => store.list())
      .then((jobs) => (uploadsInFlight(jobs) ? wakeQueue() : undefined))
      .catch(() => undefined);
  }, QUEUE_HEARTBEAT_MS);
  return () => clearInterval(timer);
}

/** Wakes the worker when the work its last run left is due. */
function continueWorkerRuns(): () => void {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!container) return () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onMessage = (event: MessageEvent<QueueContinueMessage | null>): void => {
    if (event.data?.type !== 'UPLOAD_QUEUE_CONTINUE') return;
    clearTimeout(timer);
    timer = setTimeout(() => void wakeQueue(), Math.max(0, event.data.at - Date.now()));
  };
  container.addEventListener('message', onMessage);
  container.startMessages?.();
  return () => {
    clearTimeout(timer);
    container.removeEventListener('message', onMessage);
  };
}

/** A job that lost the file this page handed over (its worker was stopped) gets it back. */
function giveBackSessionFiles(): () => void {
  return subscribe((message) => {
    if (message.state !== 'needs-file') return;
    const file = sessionFile(message.jobId);
    if (file) void resumeWithFile(message.jobId, file);
  });
}

/**
 * The user caches are deleted by the page too, not only by the worker on its message: a page the
 * worker does not control (after a hard reload) has no one to send the message to.
 */
async function deleteCachesHere(keepUserId?: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  await deleteUserCaches(keepUserId).catch((error: unknown) =>
    console.warn('User caches not deleted', error),
  );
}

export async function setQueueAuth(token: string, userId: string): Promise<void> {
  await (await openSessionDb()).handOverAuth(token, userId);
  postToWorker({ type: 'AUTH', token, userId });
  // Nobody else's data stays (the worker does the same on AUTH, when it controls the page).
  void deleteCachesHere(userId);
  // Not awaited: the session's hand-overs run in a chain that must not wait for Background Sync.
  void wakeQueue();
}

/** Logout, expiry and account deletion: the queue forgets the token and the user's caches go. */
export async function clearQueueAuth(): Promise<void> {
  await (await openSessionDb()).setAuth(undefined);
  if (!postToWorker({ type: 'LOGOUT' })) {
    // An active worker that does not control this page still forgets the user's recent tokens.
    const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
    registration?.active?.postMessage({ type: 'LOGOUT' } satisfies QueueWorkerMessage);
  }
  await deleteCachesHere();
}

export async function enqueueUpload(input: EnqueueInput): Promise<string> {
  const store = await queueHost().store();
  const auth = await (await openSessionDb()).getAuth();
  if (!auth) throw new Error('Sign in before uploading.');
  // Asked per upload (the browser remembers the answer); without it a stored video may be evicted.
  // Missing outside secure contexts: the file then stays in memory or behind a handle.
  const storage = navigator.storage as
    (StorageManager & { persist?: () => Promise<boolean> }) | undefined;
  await storage?.persist?.().catch(() => false);
  let { job, blobs } = await buildJob(input, auth.userId, Date.now(), canStoreBlob);
  try {
    await store.add(job, blobs);
  } catch (error) {
    // The estimate said there was room and the write found none: queue it without the copy.
    if (!(error instanceof DOMException && error.name === 'QuotaExceededError')) throw error;
    ({ job, blobs } = await buildJob(input, auth.userId, Date.now(), () => Promise.resolve(false)));
    await store.add(job, blobs);
  }
  if (job.fileKeep !== 'blob') handOver(job.id, input.file);
  // Pages list the new job at once, even while the runner cannot start (offline, lock busy).
  broadcast(toJobMessage(job));
  await wakeQueue();
  return job.id;
}

/** A file that could not be stored lives on in memory: here, and in the worker if one runs the queue. */
export function handOver(jobId: string, file: Blob): void {
  rememberSessionFile(jobId, file);
  postToWorker({ type: 'PROVIDE_FILE', jobId, file });
}

export function subscribe(listener: (message: JobMessage) => void): () => void {
  const channel = openQueueChannel();
  channel.addEventListener('message', (event: MessageEvent<ChannelMessage>) => {
    if (event.data.type === 'job') listener(event.data);
  });
  return () => channel.close();
}

export async function listJobs(): Promise<JobSummary[]> {
  const store = await queueHost().store();
  const auth = await (await openSessionDb()).getAuth();
  const jobs = await store.list();
  return jobs
    .filter((job) => auth && job.ownerId === auth.userId)
    .map((job) => ({
      ...toJobMessage(job),
      filename: job.file.name,
      size: job.file.size,
      createdAt: job.createdAt,
      ...(job.batchId ? { batchId: job.batchId } : {}),
    }));
}

export async function change(
  jobId: string,
  mutate: (job: UploadJob) => UploadJob,
): Promise<UploadJob | undefined> {
  const store = await queueHost().store();
  const saved = await store.update(jobId, mutate);
  if (saved) broadcast(toJobMessage(saved));
  return saved;
}

export function broadcast(message: ChannelMessage): void {
  const channel = openQueueChannel();
  channel.postMessage(message);
  channel.close();
}

/** Retries a failed or waiting upload now, with the backoff reset. */
export async function retry(jobId: string): Promise<void> {
  await change(jobId, (job) =>
    ['failed', 'waiting-retry', 'offline', 'waiting-auth'].includes(job.hold)
      ? { ...job, hold: 'active', attempts: 0, nextAttemptAt: 0, lastError: undefined }
      : job,
  );
  await wakeQueue();
}

/** Cancels an upload; the runner aborts the multipart upload and removes the unfinished video. */
export async function cancel(jobId: string): Promise<void> {
  const saved = await change(jobId, (job) =>
    job.phase === 'done' || jobState(job) === 'cancelled'
      ? job
      : { ...job, hold: 'cancelled', cancelPending: true, nextAttemptAt: 0 },
  );
  if (saved?.cancelPending) {
    broadcast({ type: 'cancel', jobId });
    await wakeQueue();
  }
}

/** Gives a needs-file job its file again; answers what differs when it is not the same file. */
export async function provideFile(
  jobId: string,
  file: FileLike,
): Promise<FileMismatch | 'unknown-job' | undefined> {
  const store = await queueHost().store();
  const job = await store.get(jobId);
  if (!job) return 'unknown-job';
  const mismatch = await matchFile(job.file, file);
  if (mismatch) return mismatch;
  await resumeWithFile(jobId, file);
  return undefined;
}

async function resumeWithFile(jobId: string, file: Blob): Promise<void> {
  handOver(jobId, file);
  await change(jobId, (j) => (j.hold === 'needs-file' ? { ...j, hold: 'active' } : j));
  await wakeQueue();
}
