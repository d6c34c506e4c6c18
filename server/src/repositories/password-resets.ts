// Password reset tokens: only the SHA-256 of the random token is stored.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export async function insertPasswordReset(
  q: Queryable,
  r: { userId: string; tokenHash: string; now: number; ttlMs: number },
): Promise<void> {
  await q.query(
    'INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [r.userId, r.tokenHash, new Date(r.now), new Date(r.now + r.ttlMs)],
  );
}

/** Whether a token is unused and unexpired now (without using it). */
export async function isLiveReset(q: Queryable, tokenHash: string, now: number): Promise<boolean> {
  const row = await one(
    q,
    'SELECT 1 FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [tokenHash, new Date(now)],
  );
  return row !== undefined;
}

/**
 * Marks an unused, unexpired token as used and answers its user; undefined when the token is
 * unknown, used or expired. One statement, so a token works exactly once even under races.
 */
export async function consumePasswordReset(
  q: Queryable,
  tokenHash: string,
  now: number,
): Promise<string | undefined> {
  const row = await one<{ user_id: string }>(
    q,
    `UPDATE password_resets SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
    [tokenHash, new Date(now)],
  );
  return row?.user_id;
}

/** After a reset every other outstanding link of the user stops working too. */
export async function invalidateUserResets(
  q: Queryable,
  userId: string,
  now: number,
): Promise<void> {
  await q.query('UPDATE password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [
    userId,
    new Date(now),
  ]);
}
