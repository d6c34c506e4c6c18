import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';
import { hashToken, newToken } from '../auth/tokens.ts';

/** Access tokens live 1 hour; refresh extends them while the session is used within 7 days. */
export const ACCESS_TTL_MS = 60 * 60 * 1000;
export const REFRESH_IDLE_MS = 7 * 24 * 60 * 60 * 1000;

export interface SessionRow {
  session_id: string;
  user_id: string;
  expires_at: Date;
  refresh_until: Date;
}

export async function createSession(q: Queryable, userId: string, now: number): Promise<string> {
  const token = newToken();
  await q.query(
    'INSERT INTO sessions (user_id, token_hash, expires_at, refresh_until) VALUES ($1, $2, $3, $4)',
    [userId, hashToken(token), new Date(now + ACCESS_TTL_MS), new Date(now + REFRESH_IDLE_MS)],
  );
  return token;
}

/** The live (not revoked) session of a token, whether or not its access time has passed. */
export function findSession(q: Queryable, token: string): Promise<SessionRow | undefined> {
  return one<SessionRow & Record<string, unknown>>(
    q,
    `SELECT id AS session_id, user_id, expires_at, refresh_until FROM sessions
     WHERE token_hash = $1 AND revoked_at IS NULL`,
    [hashToken(token)],
  );
}

export async function revokeSession(q: Queryable, sessionId: string): Promise<void> {
  await q.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
    sessionId,
  ]);
}

/** Revokes every session of a user, optionally keeping one (the caller's own). */
export async function revokeUserSessions(
  q: Queryable,
  userId: string,
  keepSessionId?: string,
): Promise<void> {
  await q.query(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $2',
    [userId, keepSessionId ?? null],
  );
}

/**
 * Revokes a live session and answers its user, or undefined when it was already revoked (a
 * concurrent refresh won): used to rotate tokens exactly once.
 */
export async function revokeLiveSession(
  q: Queryable,
  sessionId: string,
): Promise<string | undefined> {
  const row = await one<{ user_id: string }>(
    q,
    'UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING user_id',
    [sessionId],
  );
  return row?.user_id;
}

/** Live sessions of a user (tests and the admin listing). */
export async function countLiveSessions(
  q: Queryable,
  userId: string,
  now: number,
): Promise<number> {
  const row = await one<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM sessions
     WHERE user_id = $1 AND revoked_at IS NULL AND refresh_until > $2`,
    [userId, new Date(now)],
  );
  return row?.n ?? 0;
}

/** Drops sessions that can no longer be used (past their refresh time, or revoked) for a day. */
export async function pruneSessions(q: Queryable, now: number): Promise<void> {
  const dayAgo = new Date(now - 24 * 60 * 60 * 1000);
  await q.query('DELETE FROM sessions WHERE refresh_until < $1 OR revoked_at < $1', [dayAgo]);
}
