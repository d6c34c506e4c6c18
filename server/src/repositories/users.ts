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

const SELECT_USER = `SELECT u.id, u.team_id, t.name AS team_name, u.email, u.full_name, u.username,
  u.password_hash, u.must_change_password, u.is_team_admin, u.language, u.created_at
  FROM users u JOIN teams t ON t.id = u.team_id`;

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
