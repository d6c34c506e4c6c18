// The SQL of the job queue: the only code that reads or writes the jobs table.
// Times come from the caller (ctx.now) so tests can move the clock; every statement is one
// round trip that is atomic on its own, the same on PGlite and PostgreSQL.
import type { Queryable } from '../db/db.ts';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export type JobRow = {
  id: string;
  name: string;
  video_id: string | null;
  payload: Record<string, string>;
  state: JobState;
  run_at: Date;
  locked_by: string | null;
  locked_until: Date | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
};

const iso = (ms: number): string => new Date(ms).toISOString();

/** Inserts a queued job; undefined when a live job of that name already exists for the video. */
export async function insertJob(
  q: Queryable,
  job: {
    name: string;
    videoId: string | null;
    payload?: Record<string, string>;
    runAt: number;
    maxAttempts: number;
  },
): Promise<string | undefined> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO jobs (name, video_id, payload, run_at, max_attempts, created_at, updated_at)
     VALUES ($1, $2, $3, $4::timestamptz, $5, $4::timestamptz, $4::timestamptz)
     ON CONFLICT (name, video_id) WHERE state IN ('queued', 'running') DO NOTHING
     RETURNING id`,
    [job.name, job.videoId, JSON.stringify(job.payload ?? {}), iso(job.runAt), job.maxAttempts],
  );
  return rows[0]?.id;
}

/**
 * Takes the next due job among `names`: a queued one whose time has come, or a running one whose
 * lease expired (its worker died). SKIP LOCKED lets concurrent workers pass each other by.
 */
export async function claimJob(
  q: Queryable,
  o: { names: readonly string[]; workerId: string; now: number; leaseMs: number },
): Promise<JobRow | undefined> {
  const rows = await q.query<JobRow>(
    `UPDATE jobs SET state = 'running', locked_by = $1, locked_until = $2::timestamptz,
       attempts = attempts + 1, updated_at = $3::timestamptz
     WHERE id = (
       SELECT id FROM jobs
       WHERE name = ANY($4::text[])
         AND ((state = 'queued' AND run_at <= $3::timestamptz)
           OR (state = 'running' AND locked_until < $3::timestamptz))
       ORDER BY run_at, created_at
       LIMIT 1
       FOR UPDATE SKIP LOCKED)
     RETURNING id, name, video_id, payload, state, run_at, locked_by, locked_until, attempts,
       max_attempts, last_error`,
    [o.workerId, iso(o.now + o.leaseMs), iso(o.now), o.names],
  );
  return rows[0];
}

/** Extends the lease; false when the job is no longer ours (cancelled, or taken over). */
export async function renewLease(
  q: Queryable,
  o: { id: string; workerId: string; now: number; leaseMs: number },
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE jobs SET locked_until = $3::timestamptz, updated_at = $4::timestamptz
     WHERE id = $1 AND locked_by = $2 AND state = 'running' RETURNING id`,
    [o.id, o.workerId, iso(o.now + o.leaseMs), iso(o.now)],
  );
  return rows.length > 0;
}

type Finish =
  | { state: 'done' }
  | { state: 'failed'; error: string }
  | { state: 'queued'; error: string; runAt: number };

/** Ends our hold on a running job; false when it was not ours any more (nothing changed). */
export async function finishJob(
  q: Queryable,
  o: { id: string; workerId: string; now: number } & Finish,
): Promise<boolean> {
  const runAt = o.state === 'queued' ? o.runAt : o.now;
  const error = o.state === 'done' ? null : o.error.slice(0, 4000);
  const rows = await q.query(
    `UPDATE jobs SET state = $3, run_at = $4::timestamptz, last_error = COALESCE($5, last_error),
       locked_by = NULL, locked_until = NULL, updated_at = $6::timestamptz
     WHERE id = $1 AND locked_by = $2 AND state = 'running' RETURNING id`,
    [o.id, o.workerId, o.state, iso(runAt), error, iso(o.now)],
  );
  return rows.length > 0;
}

/** Gives a job back untouched when a worker stops before finishing it (the attempt is not counted). */
export async function releaseJob(
  q: Queryable,
  o: { id: string; workerId: string; now: number },
): Promise<void> {
  await q.query(
    `UPDATE jobs SET state = 'queued', attempts = GREATEST(attempts - 1, 0), locked_by = NULL,
       locked_until = NULL, updated_at = $3::timestamptz
     WHERE id = $1 AND locked_by = $2 AND state = 'running'`,
    [o.id, o.workerId, iso(o.now)],
  );
}

/** Cancels every live job of a video; answers the ids so in-process workers can stop them. */
export async function cancelJobsOfVideo(
  q: Queryable,
  videoId: string,
  now: number,
): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `UPDATE jobs SET state = 'cancelled', locked_by = NULL, locked_until = NULL,
       updated_at = $2::timestamptz
     WHERE video_id = $1 AND state IN ('queued', 'running') RETURNING id`,
    [videoId, iso(now)],
  );
  return rows.map((r) => r.id);
}

export async function jobsOfVideo(q: Queryable, videoId: string): Promise<JobRow[]> {
  return q.query<JobRow>(
    `SELECT id, name, video_id, payload, state, run_at, locked_by, locked_until, attempts,
       max_attempts, last_error
     FROM jobs WHERE video_id = $1 ORDER BY created_at`,
    [videoId],
  );
}

export async function jobState(q: Queryable, id: string): Promise<JobState | undefined> {
  const rows = await q.query<{ state: JobState }>('SELECT state FROM jobs WHERE id = $1', [id]);
  return rows[0]?.state;
}

/**
 * Puts every running job back in the queue at once. Only for the embedded database at start:
 * it serves one process, so a job still marked running belongs to a process that died (killed,
 * power loss) and need not wait for its lease. The interrupted attempt stays counted, so a job
 * that kills the process each time still ends failed.
 */
export async function requeueRunningJobs(q: Queryable, now: number): Promise<number> {
  const rows = await q.query(
    `UPDATE jobs SET state = 'queued', run_at = $1::timestamptz, locked_by = NULL,
       locked_until = NULL, updated_at = $1::timestamptz
     WHERE state = 'running' RETURNING id`,
    [iso(now)],
  );
  return rows.length;
}

/**
 * Deletes finished, failed and cancelled jobs last touched before `before`: the table does not
 * grow for ever, and the e-mail address a reset-link job carries goes with it. Answers how many.
 */
export async function pruneFinishedJobs(q: Queryable, before: number): Promise<number> {
  const rows = await q.query(
    `DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled')
       AND updated_at < $1::timestamptz RETURNING id`,
    [iso(before)],
  );
  return rows.length;
}
