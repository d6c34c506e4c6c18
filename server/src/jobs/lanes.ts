// The workers of one process, in three lanes: video work (analysis, trailers, reports) with the
// given concurrency; quick jobs (a signed-in user's mail, housekeeping, recurring jobs), so a
// code never waits behind an hour-long analysis; and what anonymous requests queue (forgot
// password and its mail), so a flood of those never delays a signed-in user's code either.
import type { AppContext } from '../context.ts';
import { queueFaceRecompute } from '../faces/recompute.ts';
import { productHandlers } from './handlers.ts';
import { requeueRunningJobs } from './job-store.ts';
import { ANONYMOUS_JOBS, QUICK_JOBS } from './names.ts';
import { JobWorker } from './worker.ts';

export interface WorkerLanes {
  readonly workers: readonly JobWorker[];
  /** Stops every lane; running jobs go back to the queue. */
  stop(): Promise<void>;
  /** The jobs running now, in words (what a stopping process still waits for). */
  describeRunning(): string[];
}

export function startWorkerLanes(
  ctx: AppContext,
  opts: { concurrency: number; leaseMs?: number },
): WorkerLanes {
  const handlers = productHandlers();
  const ownLane = new Set<string>([...QUICK_JOBS, ...ANONYMOUS_JOBS]);
  const lease = opts.leaseMs === undefined ? {} : { leaseMs: opts.leaseMs };
  const workers = [
    new JobWorker(ctx, {
      handlers,
      names: handlers.map((h) => h.name).filter((n) => !ownLane.has(n)),
      concurrency: opts.concurrency,
      ...lease,
    }),
    new JobWorker(ctx, { handlers, names: [...QUICK_JOBS], concurrency: 1, ...lease }),
    new JobWorker(ctx, { handlers, names: [...ANONYMOUS_JOBS], concurrency: 1, ...lease }),
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
  // Faces analysed before the descriptor switch are described again, once (faces/recompute.ts).
  const queued = started
    .then(() => queueFaceRecompute(ctx))
    .catch((err: unknown) =>
      ctx.log.child({ component: 'worker' }).warn({ err }, 'face recompute not queued'),
    );
  return {
    workers,
    async stop() {
      await started;
      await queued;
      await Promise.all(workers.map((w) => w.stop()));
    },
    describeRunning: () => workers.flatMap((w) => w.describeRunning()),
  };
}
