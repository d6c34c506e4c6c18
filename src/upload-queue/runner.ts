// Runs the queue: picks the next runnable job of the signed-in user and advances it transition by
// transition, recording failures as holds (waiting-retry, offline, waiting-auth, needs-file,
// failed). It is the same code in a page and in the service worker; callers hold the runner lock.
import { PARTS_IN_FLIGHT, SINGLE_FORM_MAX_BYTES } from '../config/upload-queue.ts';
import { nextDelayMs } from './backoff.ts';
import { UploadError } from './api-errors.ts';
import type { Http } from './http.ts';
import type { SessionDb, StoredAuth } from '../lib/session-db.ts';
import { refreshCall, refreshToken, type RefreshOutcome } from '../lib/token-refresh.ts';
import type { JobStore } from './job-store.ts';
import { recordFinished } from './batch-entries.ts';
import { isFinished, toJobMessage, type JobMessage, type UploadJob } from './job-types.ts';
import { cancelOnServer, step, type StepContext } from './job-steps.ts';
import { withWatchdog, type WatchdogLimits } from './request-watchdog.ts';

export interface RunnerDeps {
  store: JobStore;
  /** Who is signed in (the token every request carries). */
  session: SessionDb;
  http: Http;
  publish: (message: JobMessage) => void;
  now?: () => number;
  random?: () => number;
  /** Resolves after ms, or early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  isOnline?: () => boolean;
  apiBase?: string;
  singleFormMaxBytes?: number;
  partsInFlight?: number;
  /** Stall detection of every request (config defaults; tests shorten it). */
  watchdog?: WatchdogLimits;
  /** Web Locks, so a refresh here waits for one in a page (token-refresh.ts). */
  locks?: LockManager;
  /** Jobs advanced at the same time (a batch's small files); 1 unless told. */
  jobsAtOnce?: number;
}

export interface RunOptions {
  /** Stop starting new transitions after this time (service worker events are short-lived). */
  deadline?: number;
  /**
   * Stop after this many transitions (tests use 1 to "kill" the runner after each). Every part of
   * a multipart transfer counts as one, so with 1 the runner sends a single part.
   */
  maxTransitions?: number;
  signal?: AbortSignal;
}

export interface RunResult {
  transitions: number;
  /** True when runnable or soon-due work remains (e.g. the deadline came first). */
  workLeft: boolean;
  /** When that work is due (epoch ms; now or earlier when it could run at once); none without. */
  nextWakeAt?: number;
}

function runResult(transitions: number, nextWakeAt: number | undefined): RunResult {
  return nextWakeAt === undefined
    ? { transitions, workLeft: false }
    : { transitions, workLeft: true, nextWakeAt };
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** How often the first lane looks again while the other lanes hold every runnable job. */
const LANE_POLL_MS = 100;

const navigatorOnline = (): boolean => typeof navigator === 'undefined' || navigator.onLine;

function runnable(
  job: UploadJob,
  auth: StoredAuth | undefined,
  now: number,
  online: boolean,
): boolean {
  if (!auth || job.ownerId !== auth.userId) return false;
  if (job.cancelPending) return job.nextAttemptAt <= now;
  if (job.phase === 'done') return false;
  switch (job.hold) {
    case 'active':
      return true;
    case 'waiting-retry':
      return job.nextAttemptAt <= now;
    case 'offline':
      return online;
    case 'waiting-auth':
      return true; // a token is here now
    default:
      return false;
  }
}

/** Creates a runner; its per-run memory (signed URLs) dies with it, as in a killed context. */
export function createRunner(deps: RunnerDeps) {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? defaultSleep;
  const isOnline = deps.isOnline ?? navigatorOnline;
  // No request may hang the runner (and its lock) for ever: a stalled one fails and is retried.
  const http = withWatchdog(deps.http, deps.watchdog);
  const signedUrls = new Map<string, Map<number, string>>();
  const reconciled = new Set<string>();
  /** The jobs being advanced now (one per lane), and how to stop each one's request. */
  const inFlight = new Map<string, AbortController>();

  function publish(job: UploadJob, inFlight = 0): void {
    deps.publish(toJobMessage(job, inFlight));
  }

  /** A refused token is renewed as pages renew theirs: once across the origin. */
  function renew(auth: StoredAuth): Promise<RefreshOutcome> {
    return refreshToken(auth.token, auth.userId, {
      session: () => Promise.resolve(deps.session),
      locks: deps.locks,
      callRefresh: refreshCall(deps.apiBase ?? '', (request) =>
        deps.http({ method: 'GET', ...request }),
      ),
    });
  }

  function retryLater(changes: Partial<UploadJob>, job: UploadJob, failure: UploadError): void {
    // Online but no answer is a flaky network: retried like a server error.
    changes.attempts = job.attempts + 1;
    changes.nextAttemptAt = now() + nextDelayMs(job.attempts, failure.retryAfterMs, random);
    changes.hold = 'waiting-retry';
  }

  async function hold(job: UploadJob, error: unknown, auth: StoredAuth): Promise<UploadJob> {
    const failure =
      error instanceof UploadError
        ? error
        : new UploadError('retry', error instanceof Error ? error.message : String(error));
    const changes: Partial<UploadJob> = { lastError: failure.message, updatedAt: now() };
    switch (failure.kind) {
      case 'offline':
      case 'retry':
      case 'expired-signature':
        if (failure.kind === 'offline' && !isOnline()) {
          changes.hold = 'offline';
          break;
        }
        retryLater(changes, job, failure);
        break;
      case 'auth': {
        // The token was refused: renew it (a page may have done so already). Only a refusal of
        // the renewed session forgets it, or every waiting job would try it again at once; a
        // server that cannot renew just now is retried like any failure.
        const outcome = await renew(auth);
        if (outcome.kind === 'renewed') changes.hold = 'active';
        else if (outcome.kind === 'unavailable') retryLater(changes, job, failure);
        else
          changes.hold = (await deps.session.forgetAuthIf(auth.token)) ? 'waiting-auth' : 'active';
        break;
      }
      case 'needs-file':
        changes.hold = 'needs-file';
        break;
      case 'fatal':
        changes.hold = 'failed';
        break;
    }
    if (job.cancelPending) {
      // A cancel stays cancelled whatever happens; only its server clean-up is retried.
      if (failure.kind === 'fatal') changes.cancelPending = false;
      changes.hold = 'cancelled';
    }
    // A cancel or a pause that came while the request ran stays: its abort is not a failure.
    const saved = await deps.store.update(job.id, (stored) =>
      (stored.hold === 'cancelled' && !job.cancelPending) || stored.hold === 'paused'
        ? stored
        : { ...stored, ...changes },
    );
    return saved ?? job;
  }

  async function advance(
    job: UploadJob,
    token: string,
    signal: AbortSignal,
    mayStartPart: () => boolean,
  ): Promise<UploadJob> {
    const ctx: StepContext = {
      store: deps.store,
      protocol: { http, token, now, apiBase: deps.apiBase, signal },
      onInFlight: (j, bytes) => publish(j, bytes),
      signedUrls,
      reconciled,
      singleFormMaxBytes: deps.singleFormMaxBytes ?? SINGLE_FORM_MAX_BYTES,
      partsInFlight: deps.partsInFlight ?? PARTS_IN_FLIGHT,
      mayStartPart,
    };
    if (job.cancelPending) return cancelOnServer(ctx, job);
    // Leaving a hold: the job is active again and pages see its phase.
    if (job.hold !== 'active') {
      const from = job.hold;
      job =
        (await deps.store.update(job.id, (s) =>
          s.hold === from ? { ...s, hold: 'active' } : s,
        )) ?? job;
      if (job.hold !== 'active') return job;
    }
    const next = await step(ctx, job);
    // Every completed transition is progress, which resets the backoff (issue 3).
    if (next.attempts === 0 && next.lastError === undefined) return next;
    return (
      (await deps.store.update(job.id, (s) => ({ ...s, attempts: 0, lastError: undefined }))) ??
      next
    );
  }

  async function run(options: RunOptions = {}): Promise<RunResult> {
    let transitions = 0;
    const stopAt = options.deadline ?? Infinity;
    const max = options.maxTransitions ?? Infinity;
    const outer = options.signal ?? new AbortController().signal;
    // The first lane sleeps until work is due and says when to come back; the others help while
    // there is runnable work no lane has taken.
    let wakeAt: number | undefined;
    let done = false;

    async function lane(primary: boolean): Promise<void> {
      while (!done && transitions < max && now() < stopAt && !outer.aborted) {
        const auth = await deps.session.getAuth();
        const jobs = await removeFinished(await deps.store.list());
        await parkForAuth(jobs, auth);
        const online = isOnline();
        const job = jobs.find((j) => !inFlight.has(j.id) && runnable(j, auth, now(), online));
        if (!job || !auth) {
          if (!primary) return;
          // Every runnable job is in another lane's hands: they may leave more work behind.
          if (inFlight.size > 0) {
            await sleep(LANE_POLL_MS, outer);
            continue;
          }
          const due = nextWake(jobs, auth);
          if (due === undefined || due >= stopAt || transitions >= max) {
            wakeAt = due;
            done = true;
            return;
          }
          await sleep(Math.max(0, due - now()), outer);
          continue;
        }
        const controller = new AbortController();
        const abortInner = (): void => controller.abort(outer.reason);
        outer.addEventListener('abort', abortInner, { once: true });
        inFlight.set(job.id, controller);
        // Parts started by this transition; the first is always allowed (progress), the next ones
        // only while the runner may go on (its deadline, its transition budget, not stopped).
        let parts = 0;
        const mayStartPart = (): boolean => {
          if (parts > 0 && (transitions + parts >= max || now() >= stopAt || outer.aborted))
            return false;
          parts += 1;
          return true;
        };
        try {
          const next = await advance(job, auth.token, controller.signal, mayStartPart);
          publish(next);
        } catch (error) {
          if (outer.aborted) break;
          const latest = (await deps.store.get(job.id)) ?? job;
          // A cancel that arrived mid-request aborted it: go on with the cancel, not a failure.
          if (!(controller.signal.aborted && latest.cancelPending))
            publish(await hold(latest, error, auth));
        } finally {
          outer.removeEventListener('abort', abortInner);
          inFlight.delete(job.id);
        }
        transitions += Math.max(1, parts);
      }
      if (primary) done = true;
    }

    // Helpers start only when the first lane found work; each takes a job no other lane has.
    const lanes = Math.max(1, deps.jobsAtOnce ?? 1);
    await Promise.all([lane(true), ...Array.from({ length: lanes - 1 }, () => lane(false))]);
    if (wakeAt !== undefined && transitions < max && now() < stopAt && !outer.aborted) {
      return runResult(transitions, wakeAt);
    }
    const auth = await deps.session.getAuth();
    const jobs = await deps.store.list();
    const nextWakeAt = jobs.some((j) => runnable(j, auth, now(), isOnline()))
      ? now()
      : nextWake(jobs, auth);
    return runResult(transitions, nextWakeAt);
  }

  /**
   * Finished jobs leave IndexedDB on the runner's next look (any user's: no token is needed to
   * forget), so the store holds only work still to do, failed uploads the user may retry, and
   * cancels still owed to the server. Answers the jobs that remain.
   */
  async function removeFinished(jobs: UploadJob[]): Promise<UploadJob[]> {
    const remaining: UploadJob[] = [];
    for (const job of jobs) {
      if (!isFinished(job)) {
        remaining.push(job);
        continue;
      }
      // Its batch keeps what became of it (the video, or that it was cancelled) before it goes.
      if (job.batchId) await deps.store.updateBatch(job.batchId, (b) => recordFinished(b, job));
      await deps.store.remove(job.id);
    }
    return remaining;
  }

  /** Jobs that cannot run for lack of a matching token show as waiting-auth. */
  async function parkForAuth(jobs: UploadJob[], auth: StoredAuth | undefined): Promise<void> {
    for (const job of jobs) {
      const mine = auth && job.ownerId === auth.userId;
      const parkable =
        job.hold === 'active' || job.hold === 'waiting-retry' || job.hold === 'offline';
      if (!mine && parkable && job.phase !== 'done') {
        const saved = await deps.store.update(job.id, (s) =>
          s.hold === job.hold ? { ...s, hold: 'waiting-auth' } : s,
        );
        if (saved) {
          job.hold = saved.hold;
          publish(saved);
        }
      }
    }
  }

  function nextWake(jobs: UploadJob[], auth: StoredAuth | undefined): number | undefined {
    const times = jobs
      .filter(
        (j) => auth && j.ownerId === auth.userId && (j.hold === 'waiting-retry' || j.cancelPending),
      )
      .map((j) => j.nextAttemptAt);
    return times.length ? Math.min(...times) : undefined;
  }

  return {
    run,
    /** Aborts the in-flight request of a job being cancelled. */
    abortJob(jobId: string): void {
      inFlight.get(jobId)?.abort(new DOMException('Cancelled', 'AbortError'));
    },
  };
}

export type Runner = ReturnType<typeof createRunner>;
