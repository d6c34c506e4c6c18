// The context that runs the queue (the service worker, or a page when there is none): owns the
// runner, takes the runner lock for each run, publishes progress, and obeys control messages
// ('cancel', 'wake') that any page sends over the shared BroadcastChannel.
import { JOBS_AT_ONCE } from '../config/upload-queue.ts';
import { defaultHttp, type Http } from './http.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { openJobStore, type JobStore } from './job-store.ts';
import type { JobMessage } from './job-types.ts';
import { createThrottledPublisher, openQueueChannel } from './progress-channel.ts';
import { withRunnerLock } from './runner-lock.ts';
import { createRunner, type RunResult } from './runner.ts';

/** cancel and pause stop the job's request in flight; the job's record already says why. */
export type ControlMessage =
  { type: 'cancel'; jobId: string } | { type: 'pause'; jobId: string } | { type: 'wake' };
export type ChannelMessage = JobMessage | ControlMessage;

/** How long to wait before trying again when another context held the lock. */
const LOCK_BUSY_RETRY_MS = 3_000;

export interface QueueHost {
  /** Runs the queue now (or soon, if another context holds the lock). */
  wake(budgetMs?: number): Promise<RunResult | undefined>;
  store(): Promise<JobStore>;
}

export function createQueueHost(http: Http = defaultHttp): QueueHost {
  const channel = openQueueChannel();
  const publisher = createThrottledPublisher((message) => channel.postMessage(message));
  let storePromise: Promise<JobStore> | undefined;
  let runner: ReturnType<typeof createRunner> | undefined;
  let running: Promise<RunResult | undefined> | undefined;
  let again = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const store = (): Promise<JobStore> => (storePromise ??= openJobStore());

  async function runOnce(budgetMs: number | undefined): Promise<RunResult | undefined> {
    const jobs = await store();
    const session = await openSessionDb();
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    runner ??= createRunner({
      store: jobs,
      session,
      http,
      publish: (m) => publisher.publish(m),
      jobsAtOnce: JOBS_AT_ONCE,
      ...(locks ? { locks } : {}),
    });
    const active = runner;
    let result: RunResult | undefined;
    const ran = await withRunnerLock(jobs, async () => {
      result = await active.run(budgetMs === undefined ? {} : { deadline: Date.now() + budgetMs });
    });
    publisher.flush();
    if (!ran) {
      // Another context runs the queue; look again shortly in case it stopped before our job.
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => void wake(budgetMs), LOCK_BUSY_RETRY_MS);
    }
    return result;
  }

  function wake(budgetMs?: number): Promise<RunResult | undefined> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let result: RunResult | undefined;
      do {
        again = false;
        result = await runOnce(budgetMs);
      } while (again);
      return result;
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  channel.addEventListener('message', (event: MessageEvent<ChannelMessage>) => {
    const message = event.data;
    if (message.type === 'cancel' || message.type === 'pause') {
      runner?.abortJob(message.jobId);
      void wake();
    }
    if (message.type === 'wake') void wake();
  });

  return { wake, store };
}
