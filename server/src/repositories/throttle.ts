// Throttle events: one row per counted event, counted in a time window. Works across processes.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export interface EventCount {
  count: number;
  /** Times of the oldest and newest events in the window, when there are any. */
  first: Date | undefined;
  last: Date | undefined;
}

export interface ThrottleEvent {
  scope: string;
  key: string;
  clientIp?: string;
  at: number;
}

export async function recordEvent(q: Queryable, e: ThrottleEvent): Promise<void> {
  await q.query('INSERT INTO throttle_events (scope, key, client_ip, at) VALUES ($1, $2, $3, $4)', [
    e.scope,
    e.key,
    e.clientIp ?? '',
    new Date(e.at),
  ]);
}

/** Events of a scope since a time, filtered by key, client address or both. */
export async function countEvents(
  q: Queryable,
  f: { scope: string; key?: string; clientIp?: string; since: number },
): Promise<EventCount> {
  const row = await one<{ n: number; first: Date | null; last: Date | null }>(
    q,
    `SELECT count(*)::int AS n, min(at) AS first, max(at) AS last FROM throttle_events
     WHERE scope = $1 AND at > $2 AND ($3::text IS NULL OR key = $3)
       AND ($4::text IS NULL OR client_ip = $4)`,
    [f.scope, new Date(f.since), f.key ?? null, f.clientIp ?? null],
  );
  return { count: row?.n ?? 0, first: row?.first ?? undefined, last: row?.last ?? undefined };
}

/** Forgets the events of a key (of one client address when given). */
export async function clearEvents(
  q: Queryable,
  scope: string,
  key: string,
  clientIp?: string,
): Promise<void> {
  await q.query(
    `DELETE FROM throttle_events WHERE scope = $1 AND key = $2
     AND ($3::text IS NULL OR client_ip = $3)`,
    [scope, key, clientIp ?? null],
  );
}

/**
 * Inside a transaction: waits for every other transaction holding one of these keys, until
 * commit. A check and the record of its attempt then happen as one step, so parallel requests
 * cannot all pass one count. Keys are locked in sorted order, so two callers never deadlock.
 */
export async function lockThrottleKeys(q: Queryable, keys: readonly string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    await q.query("SELECT pg_advisory_xact_lock(hashtextextended('throttle:' || $1, 0))", [key]);
  }
}

/** Drops events of a scope that no window looks at any more. */
export async function pruneEvents(q: Queryable, scope: string, before: number): Promise<void> {
  await q.query('DELETE FROM throttle_events WHERE scope = $1 AND at < $2', [
    scope,
    new Date(before),
  ]);
}
