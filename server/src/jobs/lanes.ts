// The workers of one process, in two lanes: video work (analysis, trailers, reports) with the
// given concurrency, and quick jobs (mail, housekeeping, recurring jobs) in a lane of their own,
// so a reset mail never waits behind an hour-long analysis.
import type { AppContext } from '../context.ts';
import { productHandlers } from './handlers.ts';
import { requeueRunningJobs } from './job-store.ts';
import { QUICK_JOBS } from './names.ts';
import { JobWorker } from './worker.ts';

export interface WorkerLanes {
  readonly workers: readonly JobWorker[];
  /** Stops both lanes; running jobs go back to the queue. */
  stop(): Promise<void>;
  /** The jobs running now, in words (what a stopping process still waits for). */
  describeRunning(): string[];
}

export function startWorkerLanes(
  ctx: AppContext,
  opts: { concurrency: number; leaseMs?: number },
): WorkerLanes {
  const handlers = productHandlers();
  const quick = new Set<string>(QUICK_JOBS);
  const lease = opts.leaseMs === undefined ? {} : { leaseMs: opts.leaseMs };
  const workers = [
    new JobWorker(ctx, {
      handlers,
      names: handlers.map((h) => h.name).filter((n) => !quick.has(n)),
      concurrency: opts.concurrency,
      ...lease,
    }),
    new JobWorker(ctx, { handlers, names: [...quick], concurrency: 1, ...lease }),
  ];
  // The embedded database serves this process only: jobs left running were cut off by a crash.
  const ready =
    ctx.db.kind === 'pglite'
      ? requeueRunningJobs(ctx.db, ctx.now()).then((n) => {
          if (n > 0) {
            ctx.log
              .child({ component: 'worker' })
              .warn({ jobs: n }, 'jobs cut off by a crash requeued');
          }
        })
      : Promise.resolve();
  const started = ready.then(
    () => workers.forEach((w) => w.start()),
    () => workers.forEach((w) => w.start()),
  );
  return {
    workers,
    async stop() {
      await started;
      await Promise.all(workers.map((w) => w.stop()));
    },
    describeRunning: () => workers.flatMap((w) => w.describeRunning()),
  };
}
