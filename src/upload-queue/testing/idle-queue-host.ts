// A queue host without a runner, for screen tests of the real queue client: the job store is the
// real one (fake-indexeddb in tests) and wake() only records that the queue was asked to run.
// Use it as the module: vi.mock('…/upload-queue/queue-host', () => import('…/idle-queue-host')).
import { vi } from 'vitest';
import { openSessionDb } from '../../lib/session-db.ts';
import { openJobStore, type JobStore } from '../job-store.ts';
import type { QueueHost } from '../queue-host.ts';

export const wake = vi.fn<QueueHost['wake']>(async () => undefined);

let store: Promise<JobStore> | undefined;

export function createQueueHost(): QueueHost {
  return { wake, store: () => (store ??= openJobStore()) };
}

/** Before each test: an empty job store signed in as the test user '7', and wake() not called. */
export async function emptySignedInStore(): Promise<JobStore> {
  const jobs = await openJobStore();
  for (const job of await jobs.list()) await jobs.remove(job.id);
  await (await openSessionDb()).setAuth({ token: 'token-1', userId: '7' });
  wake.mockClear();
  return jobs;
}
