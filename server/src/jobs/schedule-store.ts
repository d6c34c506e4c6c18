// The SQL of recurring jobs: the only code that reads or writes job_schedules. A due schedule is
// claimed with FOR UPDATE SKIP LOCKED and moved to its next slot by a conditional UPDATE in the
// same transaction that queues its job, so each slot queues exactly one job across processes.
import type { Db, Queryable } from '../db/db.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The first slot after `now` on the grid next, next + every, next + 2 every, ... */
export function nextSlot(next: number, everyMs: number, now: number): number {
  return next + everyMs * (Math.floor((now - next) / everyMs) + 1);
}

/** Adds schedules that have no row yet, due at once (a fresh installation runs each one now). */
export async function ensureSchedules(
  q: Queryable,
  names: readonly string[],
  now: number,
): Promise<void> {
  if (names.length === 0) return;
  await q.query(
    `INSERT INTO job_schedules (name, next_run_at)
     SELECT unnest($1::text[]), $2::timestamptz ON CONFLICT (name) DO NOTHING`,
    [names, iso(now)],
  );
}

/**
 * Queues one job for each due schedule among `schedules` and moves it to its next slot; answers
 * the names queued. Missed slots (every process was down) collapse into this one run, and no
 * second job is queued while the previous run of the same name is still queued or running.
 */
export async function queueDueSchedules(
  db: Db,
  o: {
    schedules: readonly { name: string; everyMs: number; maxAttempts: number }[];
    now: number;
  },
): Promise<string[]> {
  if (o.schedules.length === 0) return [];
  const byName = new Map(o.schedules.map((s) => [s.name, s]));
  return db.tx(async (q) => {
    const due = await q.query<{ name: string; next_run_at: Date }>(
      `SELECT name, next_run_at FROM job_schedules
       WHERE name = ANY($1::text[]) AND next_run_at <= $2::timestamptz
       ORDER BY name FOR UPDATE SKIP LOCKED`,
      [[...byName.keys()], iso(o.now)],
    );
    const queued: string[] = [];
    for (const row of due) {
      const s = byName.get(row.name)!;
      const moved = await q.query(
        `UPDATE job_schedules SET next_run_at = $2::timestamptz, last_queued_at = $3::timestamptz
         WHERE name = $1 AND next_run_at = $4::timestamptz RETURNING name`,
        [
          s.name,
          iso(nextSlot(row.next_run_at.getTime(), s.everyMs, o.now)),
          iso(o.now),
          row.next_run_at,
        ],
      );
      if (moved.length === 0) continue;
      const inserted = await q.query(
        `INSERT INTO jobs (name, payload, run_at, max_attempts, created_at, updated_at)
         SELECT $1, '{}', $2::timestamptz, $3, $2::timestamptz, $2::timestamptz
         WHERE NOT EXISTS (
           SELECT 1 FROM jobs WHERE name = $1 AND state IN ('queued', 'running'))
         RETURNING id`,
        [s.name, iso(o.now), s.maxAttempts],
      );
      if (inserted.length > 0) queued.push(s.name);
    }
    return queued;
  });
}
