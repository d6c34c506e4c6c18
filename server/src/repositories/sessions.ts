import crypto from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { USER_COLUMNS, type UserRow } from './users.ts';

/** Access tokens live 1 hour; refresh extends them while the session is used within 7 days. */
export const ACCESS_TTL_MS = 60 * 60 * 1000;
export const REFRESH_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** However often it is refreshed, a sign-in lasts at most 30 days (issue 14). */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionRow {
  session_id: string;
  user_id: string;
  expires_at: Date;
  refresh_until: Date;
  /** When the token was first presented; null while its holder has not used it. */
  used_at: Date | null;
}

/** The sign-in a token belongs to: rotations keep both, so the absolute lifetime holds. */
export interface SessionFamily {
  familyId: string;
  signedInAt: number;
}

/** A new token: a sign-in (no family given) or the successor of a rotated one. */
export async function createSession(
  q: Queryable,
  userId: string,
  now: number,
  family?: SessionFamily,
  token = newToken(),
): Promise<string> {
  const f = family ?? { familyId: crypto.randomUUID(), signedInAt: now };
  const end = f.signedInAt + SESSION_ABSOLUTE_MS;
  // A sign-in makes its family's row (refresh and revocations lock it) in the same statement, so
  // pruneSessions never sees the one without the other.
  await q.query(
    `WITH family AS (
       INSERT INTO session_families (id, user_id) SELECT $5, $1 WHERE $7
       ON CONFLICT (id) DO NOTHING)
     INSERT INTO sessions (user_id, token_hash, expires_at, refresh_until, family_id, signed_in_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      userId,
      hashToken(token),
      new Date(Math.min(now + ACCESS_TTL_MS, end)),
      new Date(Math.min(now + REFRESH_IDLE_MS, end)),
      f.familyId,
      new Date(f.signedInAt),
      family === undefined,
    ],
  );
  return token;
}

/** A token's row whatever its state (refresh decides between live, rotated and revoked). */
export interface TokenRow extends SessionRow {
  family_id: string;
  signed_in_at: Date;
  revoked_at: Date | null;
  rotated_at: Date | null;
  successor_sealed: string | null;
}

export function findToken(q: Queryable, token: string): Promise<TokenRow | undefined> {
  return one<TokenRow & Record<string, unknown>>(
    q,
    `SELECT id AS session_id, user_id, expires_at, refresh_until, used_at, family_id,
            signed_in_at, revoked_at, rotated_at, successor_sealed
     FROM sessions WHERE token_hash = $1`,
    [hashToken(token)],
  );
}

/**
 * Marks a live token rotated, keeping its sealed successor. False when it was no longer live (a
 * concurrent refresh won): the row lock makes exactly one caller rotate a token.
 */
export async function markRotated(
  q: Queryable,
  sessionId: string,
  successorSealed: string,
  now: number,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE sessions SET revoked_at = $2, rotated_at = $2, successor_sealed = $3,
            used_at = COALESCE(used_at, $2)
     WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
    [sessionId, new Date(now), successorSealed],
  );
  return rows.length > 0;
}

/**
 * Takes a family's row until the transaction ends (issue 28 item 6): a refresh holds it while it
 * rotates, and a revocation's update of it waits for that refresh to commit. Revocation wins
 * because of this lock: under READ COMMITTED an UPDATE of sessions alone does not see the
 * successor a concurrent refresh inserts, but the statement after a wait on this row does.
 * Answers whether the family is live (false when revoked or unknown).
 */
export async function lockLiveFamily(q: Queryable, familyId: string): Promise<boolean> {
  const row = await one<{ revoked_at: Date | null }>(
    q,
    'SELECT revoked_at FROM session_families WHERE id = $1 FOR UPDATE',
    [familyId],
  );
  return row !== undefined && row.revoked_at === null;
}

/** Ends every token of a family (logout, or a stolen token seen); answers how many were live. */
export async function revokeFamily(q: Queryable, familyId: string): Promise<number> {
  await q.query(
    'UPDATE session_families SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
    [familyId],
  );
  const rows = await q.query(
    'UPDATE sessions SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL RETURNING id',
    [familyId],
  );
  return rows.length;
}

/**
 * The live session of a token and its user (undefined when the user is gone), in one statement:
 * every signed-in request starts with it.
 */
export async function findSessionWithUser(
  q: Queryable,
  token: string,
): Promise<{ session: SessionRow; user: UserRow | undefined } | undefined> {
  const row = await one<SessionRow & Partial<UserRow> & Record<string, unknown>>(
    q,
    `SELECT s.id AS session_id, s.user_id, s.expires_at, s.refresh_until, s.used_at, ${USER_COLUMNS}
     FROM sessions s LEFT JOIN users u ON u.id = s.user_id LEFT JOIN teams t ON t.id = u.team_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL`,
    [hashToken(token)],
  );
  if (!row) return undefined;
  const { session_id, user_id, expires_at, refresh_until, used_at, ...user } = row;
  return {
    session: { session_id, user_id, expires_at, refresh_until, used_at },
    user: user.id ? (user as UserRow) : undefined,
  };
}

/** Records a token's first use (once: later calls find it set and write nothing). */
export async function markUsed(q: Queryable, sessionId: string, now: number): Promise<void> {
  await q.query('UPDATE sessions SET used_at = $2 WHERE id = $1 AND used_at IS NULL', [
    sessionId,
    new Date(now),
  ]);
}

/** Logout: the token's whole family ends, so a tab still racing a rotation cannot revive it. */
export async function revokeSession(q: Queryable, sessionId: string): Promise<void> {
  const row = await one<{ family_id: string }>(q, 'SELECT family_id FROM sessions WHERE id = $1', [
    sessionId,
  ]);
  if (row) await revokeFamily(q, row.family_id);
}

/**
 * Revokes every session of a user (password change or reset, e-mail change), optionally keeping
 * one (the caller's own, and so its family). The families go first: each waits for a refresh
 * that holds it, so the tokens' update then sees that refresh's successor (lockLiveFamily).
 */
export async function revokeUserSessions(
  q: Queryable,
  userId: string,
  keepSessionId?: string,
): Promise<void> {
  await q.query(
    `UPDATE session_families SET revoked_at = now()
     WHERE user_id = $1 AND revoked_at IS NULL
       AND id IS DISTINCT FROM (SELECT family_id FROM sessions WHERE id = $2)`,
    [userId, keepSessionId ?? null],
  );
  await q.query(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $2',
    [userId, keepSessionId ?? null],
  );
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

/**
 * Drops sessions that can no longer be used (past their refresh time, or revoked) for a day. A
 * rotated token stays until its own refresh time has passed, so its reuse is still seen as theft.
 */
export async function pruneSessions(q: Queryable, now: number): Promise<void> {
  const dayAgo = new Date(now - 24 * 60 * 60 * 1000);
  await q.query(
    'DELETE FROM sessions WHERE refresh_until < $1 OR (revoked_at < $1 AND rotated_at IS NULL)',
    [dayAgo],
  );
  // A family with no token left has nothing to refresh or revoke.
  await q.query(
    `DELETE FROM session_families f
     WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = f.id)`,
  );
}
