// Pending e-mail changes: one per user, holding the hash of the one-time code sent to new_email.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export interface EmailChangeRow {
  user_id: string;
  new_email: string;
  code_hash: string;
  language: string;
  attempts: number;
  created_at: Date;
  expires_at: Date;
}

/** Stores a new code, replacing any earlier one (its tries start again at zero). */
export async function upsertEmailChange(
  q: Queryable,
  c: {
    userId: string;
    newEmail: string;
    codeHash: string;
    language: string;
    now: number;
    ttlMs: number;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO email_changes (user_id, new_email, code_hash, language, attempts, created_at, expires_at)
     VALUES ($1, $2, $3, $4, 0, $5, $6)
     ON CONFLICT (user_id) DO UPDATE SET new_email = EXCLUDED.new_email,
       code_hash = EXCLUDED.code_hash, language = EXCLUDED.language, attempts = 0,
       created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
    [c.userId, c.newEmail, c.codeHash, c.language, new Date(c.now), new Date(c.now + c.ttlMs)],
  );
}

export function findEmailChange(q: Queryable, userId: string): Promise<EmailChangeRow | undefined> {
  return one<EmailChangeRow & Record<string, unknown>>(
    q,
    'SELECT * FROM email_changes WHERE user_id = $1',
    [userId],
  );
}

/**
 * Counts one try if tries are left and answers the row with the count including this try; undefined when no tries
 * are left. Counting before comparing keeps concurrent guesses within the limit.
 */
export function takeEmailChangeAttempt(
  q: Queryable,
  userId: string,
  maxAttempts: number,
): Promise<EmailChangeRow | undefined> {
  return one<EmailChangeRow & Record<string, unknown>>(
    q,
    `UPDATE email_changes SET attempts = attempts + 1
     WHERE user_id = $1 AND attempts < $2 RETURNING *`,
    [userId, maxAttempts],
  );
}

export async function deleteEmailChange(q: Queryable, userId: string): Promise<void> {
  await q.query('DELETE FROM email_changes WHERE user_id = $1', [userId]);
}
