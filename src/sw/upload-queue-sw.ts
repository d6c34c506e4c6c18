/// <reference lib="webworker" />
// The upload queue inside the service worker: it runs on worker start, on Background Sync, on
// `online`, and when a page asks. Each run is bounded (browsers stop long-running events); work
// left over continues on the next wake (pages wake it while open; Background Sync retries it).
import { SW_RUN_BUDGET_MS, UPLOAD_QUEUE_SYNC_TAG } from '../config/upload-queue.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { rememberSessionFile } from '../upload-queue/file-source.ts';
import type { QueueContinueMessage, QueueWorkerMessage } from '../upload-queue/queue-client.ts';
import { createQueueHost } from '../upload-queue/queue-host.ts';
import type { RunResult } from '../upload-queue/runner.ts';

declare const self: ServiceWorkerGlobalScope;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

export function installUploadQueue(): void {
  const host = createQueueHost();
  const run = async (): Promise<RunResult | undefined> => {
    const result = await host.wake(SW_RUN_BUDGET_MS);
    await askPagesToContinue(result);
    return result;
  };

  self.addEventListener('message', (event) => {
    const message = event.data as QueueWorkerMessage | null;
    switch (message?.type) {
      case 'AUTH':
        event.waitUntil(
          openSessionDb()
            .then((session) => session.handOverAuth(message.token, message.userId))
            .then(run),
        );
        break;
      case 'LOGOUT':
        // The user caches are purged by sw.ts on the same message.
        event.waitUntil(openSessionDb().then((session) => session.setAuth(undefined)));
        break;
      case 'PROVIDE_FILE':
        rememberSessionFile(message.jobId, message.file);
        event.waitUntil(run());
        break;
      case 'UPLOAD_QUEUE_WAKE':
        event.waitUntil(run());
        break;
      default:
        break;
    }
  });

  self.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag !== UPLOAD_QUEUE_SYNC_TAG) return;
    sync.waitUntil(
      run().then((result) => {
        // Rejecting asks the browser to fire the sync again later (with its own backoff).
        if (result?.workLeft) throw new Error('uploads remain');
      }),
    );
  });

  self.addEventListener('online', () => void run());
  self.addEventListener('activate', (event) => event.waitUntil(run()));
  void run(); // the worker just started: pick up whatever the last one left
}

/**
 * A run ends at its budget (or before work due later): the open pages are told when to wake the
 * worker again, each wake being a new event the browser lets run. With no page open, Background
 * Sync and the next start of the worker carry on.
 */
async function askPagesToContinue(result: RunResult | undefined): Promise<void> {
  if (result?.nextWakeAt === undefined) return;
  const message: QueueContinueMessage = { type: 'UPLOAD_QUEUE_CONTINUE', at: result.nextWakeAt };
  for (const page of await self.clients.matchAll({ type: 'window' })) page.postMessage(message);
}
