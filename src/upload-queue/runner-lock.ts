// Exactly one runner at a time across pages and the service worker: Web Locks where the browser
// has them (released by the browser when a tab or worker dies), otherwise a lease in IndexedDB
// renewed while running and expiring on its own when its holder is killed.
import { RUNNER_LEASE_MS, UPLOAD_QUEUE_LOCK } from '../config/upload-queue.ts';
import type { JobStore } from './job-store.ts';

/**
 * Runs fn while holding the runner lock; answers false without running it if another context
 * holds the lock (that runner rescans the queue before it stops, so the work is not lost).
 */
export async function withRunnerLock(store: JobStore, fn: () => Promise<void>): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks) {
    return locks.request(UPLOAD_QUEUE_LOCK, { ifAvailable: true }, async (lock: Lock | null) => {
      if (!lock) return false;
      await fn();
      return true;
    });
  }
  return withLease(store, fn);
}

async function withLease(store: JobStore, fn: () => Promise<void>): Promise<boolean> {
  const owner = crypto.randomUUID();
  if (!(await store.tryLease(owner, Date.now(), RUNNER_LEASE_MS))) return false;
  const renew = setInterval(() => {
    void store.tryLease(owner, Date.now(), RUNNER_LEASE_MS);
  }, RUNNER_LEASE_MS / 3);
  try {
    await fn();
  } finally {
    clearInterval(renew);
    await store.releaseLease(owner);
  }
  return true;
}
