// A worker loop: claims due jobs of the names it has handlers for, runs up to `concurrency` at
// once, keeps each lease alive with a heartbeat, and settles every job as done (plus its
// follow-ups from the chain), retried later, failed or cancelled.
import crypto from 'node:crypto';
import os from 'node:os';
import type { AppContext } from '../context.ts';
import type { Logger } from '../lifecycle/logger.ts';
import { CHAIN } from './chain.ts';
import { JobAbort, PermanentJobError } from './errors.ts';
import {
  claimJob,
  finishJob,
  insertJob,
  jobState,
  releaseJob,
  renewLease,
  type JobRow,
} from './job-store.ts';
import { DEFAULT_MAX_ATTEMPTS } from './queue.ts';
import { buildRegistry, type JobHandler } from './registry.ts';
import { ensureSchedules, queueDueSchedules } from './schedule-store.ts';
import { SCHEDULES, type Schedule } from './schedules.ts';
import { jobSignals } from './signals.ts';

export interface WorkerOptions {
  handlers: readonly JobHandler[];
  /** Claim only these of the handlers' names (a lane); all of them when absent. */
  names?: readonly string[];
  concurrency?: number;
  /** How often an idle worker looks for due jobs (other processes' enqueues, retries). */
  pollMs?: number;
  /** A job whose lease runs out without renewal is taken over by another worker. */
  leaseMs?: number;
  /** Delay before attempt n+1 after attempt n failed. */
  backoffMs?: (attempt: number) => number;
  workerId?: string;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_POLL_MS = 1_000;
const backoff = (attempt: number): number => 5_000 * 4 ** Math.max(0, attempt - 1);

interface Active {
  job: JobRow;
  abort: AbortController;
  done: Promise<void>;
}

export class JobWorker {
  readonly id: string;
  private readonly handlers: ReadonlyMap<string, JobHandler>;
  private readonly names: string[];
  /** The recurring jobs among this worker's names; the poll loop queues them when due. */
  private readonly schedules: readonly Schedule[];
  private schedulesReady = false;
  private nextScheduleCheck = 0;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly log: Logger;
  private readonly active = new Map<string, Active>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly onEnqueued = (name: string): void => {
    if (this.handlers.has(name)) this.wake();
  };
  private readonly onCancelled = (ids: string[]): void => {
    for (const id of ids) this.active.get(id)?.abort.abort(new JobAbort('cancelled'));
  };

  constructor(
    private readonly ctx: AppContext,
    opts: WorkerOptions,
  ) {
    this.handlers = buildRegistry(opts.handlers);
    this.names = opts.names
      ? opts.names.filter((n) => this.handlers.has(n))
      : [...this.handlers.keys()];
    this.schedules = SCHEDULES.filter((s) => this.names.includes(s.name));
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.backoffMs = opts.backoffMs ?? backoff;
    this.id = opts.workerId ?? `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
    this.log = ctx.log.child({ component: 'worker' });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    jobSignals.on('enqueued', this.onEnqueued);
    jobSignals.on('cancelled', this.onCancelled);
    this.loop = this.pollLoop();
  }

  /** Stops claiming, aborts running handlers and gives their jobs back to the queue. */
  async stop(): Promise<void> {
    this.running = false;
    jobSignals.off('enqueued', this.onEnqueued);
    jobSignals.off('cancelled', this.onCancelled);
    this.wake();
    for (const a of this.active.values()) a.abort.abort(new JobAbort('stopping'));
    await this.loop;
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  wake(): void {
    this.wakeUp?.();
  }

  /** The jobs running now, in words (what a stopping process still waits for). */
  describeRunning(): string[] {
    return [...this.active.values()].map(
      ({ job }) => `job ${job.id} (${job.name}, video ${job.video_id ?? '-'})`,
    );
  }

  /** Claims one due job and runs it to its end; false when none was due. For tests and tools. */
  async runOnce(): Promise<boolean> {
    const job = await claimJob(this.ctx.db, {
      names: this.names,
      workerId: this.id,
      now: this.ctx.now(),
      leaseMs: this.leaseMs,
    });
    if (!job) return false;
    await this.begin(job).done;
    return true;
  }

  /**
   * Queues the runs of this worker's recurring jobs whose time has come (once per slot across
   * every process); answers the names queued. The poll loop calls it; tests may too.
   */
  async queueDueSchedules(): Promise<string[]> {
    if (this.schedules.length === 0) return [];
    const now = this.ctx.now();
    if (!this.schedulesReady) {
      await ensureSchedules(
        this.ctx.db,
        this.schedules.map((s) => s.name),
        now,
      );
      this.schedulesReady = true;
    }
    return queueDueSchedules(this.ctx.db, { schedules: this.schedules, now });
  }

  private async pollLoop(): Promise<void> {
    while (this.running) {
      let claimed = false;
      // At most once per poll interval, also while a backlog keeps the loop from sleeping.
      if (Date.now() >= this.nextScheduleCheck) {
        this.nextScheduleCheck = Date.now() + this.pollMs;
        try {
          await this.queueDueSchedules();
        } catch (err) {
          this.log.error({ err }, 'could not queue scheduled jobs');
        }
      }
      if (this.active.size < this.concurrency) {
        try {
          const job = await claimJob(this.ctx.db, {
            names: this.names,
            workerId: this.id,
            now: this.ctx.now(),
            leaseMs: this.leaseMs,
          });
          if (job && this.running) {
            this.begin(job);
            claimed = true;
          } else if (job) {
            await releaseJob(this.ctx.db, { id: job.id, workerId: this.id, now: this.ctx.now() });
          }
        } catch (err) {
          this.log.error({ err }, 'could not claim a job');
        }
      }
      // Look again at once after a claim (more may be due); otherwise sleep until woken.
      if (!claimed && this.running) await this.sleep(this.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private begin(job: JobRow): Active {
    const abort = new AbortController();
    const entry: Active = { job, abort, done: Promise.resolve() };
    this.active.set(job.id, entry);
    entry.done = this.execute(job, abort).finally(() => {
      this.active.delete(job.id);
      this.wake();
    });
    return entry;
  }

  private async execute(job: JobRow, abort: AbortController): Promise<void> {
    const handler = this.handlers.get(job.name)!;
    const fields = { job: job.id, name: job.name, video: job.video_id, attempt: job.attempts };
    const heartbeat = setInterval(
      () => {
        renewLease(this.ctx.db, {
          id: job.id,
          workerId: this.id,
          now: this.ctx.now(),
          leaseMs: this.leaseMs,
        }).then(
          (held) => {
            if (!held) abort.abort(new JobAbort('lost'));
          },
          (err: unknown) => this.log.warn({ ...fields, err }, 'lease renewal failed'),
        );
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    try {
      this.log.info(fields, 'job started');
      if (job.attempts > job.max_attempts) {
        throw new PermanentJobError('the worker stopped during this job too many times');
      }
      await handler.run(this.ctx, job, abort.signal);
      if (abort.signal.aborted) throw abort.signal.reason;
      await this.complete(job);
      this.log.info(fields, 'job done');
    } catch (err) {
      if (abort.signal.aborted) await this.afterAbort(job, handler, abort.signal.reason, fields);
      else await this.afterError(job, handler, err, fields);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Marks the job done and queues its follow-ups, atomically. */
  private async complete(job: JobRow): Promise<void> {
    const queued: string[] = [];
    await this.ctx.db.tx(async (q) => {
      const now = this.ctx.now();
      const ours = await finishJob(q, { id: job.id, workerId: this.id, now, state: 'done' });
      if (!ours || !job.video_id) return;
      for (const f of CHAIN[job.name as keyof typeof CHAIN] ?? []) {
        if (f.ifRegistered && !this.handlers.has(f.name)) continue;
        if (f.when && !(await f.when(q, job.video_id))) continue;
        const id = await insertJob(q, {
          name: f.name,
          videoId: job.video_id,
          payload: { videoId: job.video_id },
          runAt: now,
          maxAttempts: DEFAULT_MAX_ATTEMPTS,
        });
        if (!id) continue;
        await f.onQueued?.(q, job.video_id);
        queued.push(f.name);
      }
    });
    for (const name of queued) jobSignals.emit('enqueued', name);
  }

  private async afterAbort(
    job: JobRow,
    handler: JobHandler,
    reason: unknown,
    fields: Record<string, unknown>,
  ): Promise<void> {
    let why = reason instanceof JobAbort ? reason.why : 'lost';
    // A lost lease is often a cancel made by another process: the row tells.
    if (
      why === 'lost' &&
      (await jobState(this.ctx.db, job.id).catch(() => undefined)) === 'cancelled'
    ) {
      why = 'cancelled';
    }
    if (why === 'stopping') {
      await releaseJob(this.ctx.db, { id: job.id, workerId: this.id, now: this.ctx.now() }).catch(
        () => undefined,
      );
      this.log.info(fields, 'job given back: worker stopping');
      return;
    }
    this.log.info(fields, why === 'cancelled' ? 'job cancelled' : 'job taken over elsewhere');
    if (why === 'cancelled') {
      await handler.onCancelled?.(this.ctx, job).catch((err: unknown) => {
        this.log.warn({ ...fields, err }, 'cleanup after cancel failed');
      });
    }
  }

  private async afterError(
    job: JobRow,
    handler: JobHandler,
    err: unknown,
    fields: Record<string, unknown>,
  ): Promise<void> {
    const now = this.ctx.now();
    const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    const backoff = handler.backoffMs ?? this.backoffMs;
    try {
      if (final) {
        // One transaction: a crash between "job failed" and the handler's own record of it
        // (the video's failed status) would leave the video in progress for ever.
        await this.ctx.db.tx(async (q) => {
          const ours = await finishJob(q, {
            id: job.id,
            workerId: this.id,
            now,
            state: 'failed',
            error,
          });
          if (ours) await handler.onFailed?.(this.ctx, job, err, q);
        });
      } else {
        await finishJob(this.ctx.db, {
          id: job.id,
          workerId: this.id,
          now,
          state: 'queued',
          error,
          runAt: now + backoff(job.attempts),
        });
      }
      // A permanent failure is about the input (e.g. not a video), not the system: a warning.
      const level = final && !(err instanceof PermanentJobError) ? 'error' : 'warn';
      this.log[level]({ ...fields, err }, final ? 'job failed' : 'job will be retried');
    } catch (settleErr) {
      // The database went away (shutdown): the lease expires and another worker retries.
      this.log.warn({ ...fields, err: settleErr }, 'could not record the job failure');
    }
  }
}
