import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export interface UserRow {
  id: string;
  team_id: string;
  team_name: string;
  email: string;
  full_name: string;
  username: string;
  password_hash: string;
  must_change_password: boolean;
  is_team_admin: boolean;
  language: string;
  created_at: Date;
}

/** A UserRow's columns, from `users u JOIN teams t`. */
export const USER_COLUMNS = `u.id, u.team_id, t.name AS team_name, u.email, u.full_name, u.username,
  u.password_hash, u.must_change_password, u.is_team_admin, u.language, u.created_at`;

const SELECT_USER = `SELECT ${USER_COLUMNS} FROM users u JOIN teams t ON t.id = u.team_id`;

export function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  return one<UserRow & Record<string, unknown>>(
    q,
    `${SELECT_USER} WHERE lower(u.email) = lower($1)`,
    [email],
  );
}

export function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  return one<UserRow & Record<string, unknown>>(q, `${SELECT_USER} WHERE u.id = $1`, [id]);
}

export async function findOrCreateTeam(q: Queryable, name: string): Promise<string> {
  const found = await one<{ id: string }>(
    q,
    'SELECT id FROM teams WHERE name = $1 ORDER BY created_at LIMIT 1',
    [name],
  );
  if (found) return found.id;
  const created = await one<{ id: string }>(
    q,
    'INSERT INTO teams (name) VALUES ($1) RETURNING id',
    [name],
  );
  return created!.id;
}

export interface NewUser {
  teamId: string;
  email: string;
  fullName: string;
  username: string;
  passwordHash: string;
  isTeamAdmin: boolean;
  mustChangePassword: boolean;
}

export async function insertUser(q: Queryable, u: NewUser): Promise<string> {
  const row = await one<{ id: string }>(
    q,
    `INSERT INTO users (team_id, email, full_name, username, password_hash, is_team_admin, must_change_password)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      u.teamId,
      u.email,
      u.fullName,
      u.username,
      u.passwordHash,
      u.isTeamAdmin,
      u.mustChangePassword,
    ],
  );
  return row!.id;
}

export async function countUsers(q: Queryable): Promise<number> {
  const row = await one<{ n: number }>(q, 'SELECT count(*)::int AS n FROM users');
  return row?.n ?? 0;
}

export function listUsers(q: Queryable): Promise<UserRow[]> {
  return q.query<UserRow & Record<string, unknown>>(
    `${SELECT_USER} ORDER BY t.name, u.created_at, u.email`,
  );
}

/** Whether another member of the team uses this username, compared case-insensitively. */
export async function usernameTaken(
  q: Queryable,
  teamId: string,
  username: string,
  exceptUserId?: string,
): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM users WHERE team_id = $1 AND lower(username) = lower($2)
     AND id IS DISTINCT FROM $3 LIMIT 1`,
    [teamId, username, exceptUserId ?? null],
  );
  return rows.length > 0;
}

/**
 * Sets name and username unless another team member took the username (checked in the same
 * statement). Answers false when it was taken.
 */
export async function updateProfile(
  q: Queryable,
  user: { id: string; teamId: string },
  fields: { fullName: string; username: string; language?: string },
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE users SET full_name = $3, username = $4, language = COALESCE($5, language),
       updated_at = now()
     WHERE id = $1 AND NOT EXISTS (
       SELECT 1 FROM users o WHERE o.team_id = $2 AND lower(o.username) = lower($4) AND o.id <> $1)
     RETURNING id`,
    [user.id, user.teamId, fields.fullName, fields.username, fields.language ?? null],
  );
  return rows.length > 0;
}

export async function setPassword(
  q: Queryable,
  userId: string,
  passwordHash: string,
  mustChangePassword = false,
): Promise<void> {
  await q.query(
    `UPDATE users SET password_hash = $2, must_change_password = $3, updated_at = now()
     WHERE id = $1`,
    [userId, passwordHash, mustChangePassword],
  );
}

export async function setLanguage(q: Queryable, userId: string, language: string): Promise<void> {
  await q.query('UPDATE users SET language = $2 WHERE id = $1 AND language <> $2', [
    userId,
    language,
  ]);
}

export async function setEmail(q: Queryable, userId: string, email: string): Promise<void> {
  await q.query('UPDATE users SET email = $2, updated_at = now() WHERE id = $1', [userId, email]);
}

/** Ids of the videos a user owns (account deletion removes them with their files). */
export async function videoIdsOwnedBy(q: Queryable, userId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>('SELECT id FROM videos WHERE owner_id = $1', [userId]);
  return rows.map((r) => r.id);
}

/**
 * Locks the user's row for the rest of the transaction and answers the ids of the videos they own
 * (undefined when the user is gone). A new video needs a key-share lock on its owner's row, so
 * none can be added for them until the transaction ends; afterwards the owner is gone.
 */
export async function lockUserVideoIds(
  q: Queryable,
  userId: string,
): Promise<string[] | undefined> {
  const user = await one(q, 'SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  if (!user) return undefined;
  return videoIdsOwnedBy(q, userId);
}

/**
 * Deletes the user, their videos (scenes and people cascade) and sessions (cascade). When they
 * were the team's last admin, the longest-standing remaining member becomes admin.
 */
export async function deleteUserCascade(q: Queryable, userId: string): Promise<void> {
  const user = await one<{ team_id: string; is_team_admin: boolean }>(
    q,
    'SELECT team_id, is_team_admin FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (!user) return;
  await q.query('DELETE FROM videos WHERE owner_id = $1', [userId]);
  await q.query('DELETE FROM users WHERE id = $1', [userId]);
  if (!user.is_team_admin) return;
  await q.query(
    `UPDATE users SET is_team_admin = true WHERE id = (
       SELECT id FROM users WHERE team_id = $1 ORDER BY created_at, id LIMIT 1)
     AND NOT EXISTS (SELECT 1 FROM users WHERE team_id = $1 AND is_team_admin)`,
    [user.team_id],
  );
}
