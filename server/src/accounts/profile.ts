// The answer shapes of the account calls (snake_case; the client camel-cases them).
import type { UserRow } from '../repositories/users.ts';
import { ACCESS_TTL_MS } from '../repositories/sessions.ts';

export interface ProfileAnswer {
  id: string;
  email: string;
  full_name: string;
  username: string;
  team: { name: string };
  must_change_password: boolean;
  is_team_admin: boolean;
  language: string;
}

export function profileOf(user: UserRow): ProfileAnswer {
  return {
    id: user.id,
    email: user.email,
    full_name: user.full_name,
    username: user.username,
    team: { name: user.team_name },
    must_change_password: user.must_change_password,
    is_team_admin: user.is_team_admin,
    language: user.language,
  };
}

/** What login and refresh answer: the new bearer token and the signed-in user. */
export function tokenAnswer(token: string, user: UserRow) {
  return {
    access_token: token,
    token_type: 'bearer' as const,
    expires_in: Math.floor(ACCESS_TTL_MS / 1000),
    user: profileOf(user),
  };
}
