// Making accounts (the admin command and the first-start demo account). New accounts must
// change their initial password at first login.
import { hashPassword, randomPassword } from '../auth/passwords.ts';
import {
  fullNameProblem,
  isValidEmail,
  passwordRuleMessage,
  usernameProblem,
} from '../auth/validation.ts';
import type { Db, Queryable } from '../db/db.ts';
import {
  findOrCreateTeam,
  findUserByEmail,
  insertUser,
  usernameTaken,
} from '../repositories/users.ts';
import { USERNAME_MIN_LENGTH } from '../limits.ts';

export class AccountError extends Error {}

export interface CreateAccountInput {
  email: string;
  team: string;
  fullName?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  isTeamAdmin?: boolean | undefined;
}

/** A username from the e-mail's local part, made valid and unique within the team. */
async function deriveUsername(q: Queryable, teamId: string, email: string): Promise<string> {
  let base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40);
  if (base.length < USERNAME_MIN_LENGTH) base = `${base}user`.slice(0, 40);
  let candidate = base;
  for (let n = 2; await usernameTaken(q, teamId, candidate); n++) candidate = `${base}${n}`;
  return candidate;
}

interface CheckedInput {
  email: string;
  team: string;
  fullName: string;
  username: string | undefined;
  password: string;
  isTeamAdmin: boolean;
}

/** Checks what needs no database, so a command line tool can fail fast. */
export function checkAccountInput(input: CreateAccountInput): CheckedInput {
  const email = input.email.trim();
  const team = input.team.trim();
  if (!isValidEmail(email)) throw new AccountError(`Not a valid e-mail address: "${email}"`);
  if (!team) throw new AccountError('The team name must not be empty.');
  const password = input.password ?? randomPassword();
  const rule = passwordRuleMessage(password);
  if (rule) throw new AccountError(`The password does not follow the rules: ${rule}.`);
  // Without --name the full name starts empty; the user fills it in on the profile.
  const fullName = (input.fullName ?? '').trim();
  const nameProblem = fullName ? fullNameProblem(fullName) : undefined;
  if (nameProblem) throw new AccountError(`The name ${nameProblem}.`);
  const username = input.username?.trim();
  const problem = username === undefined ? undefined : usernameProblem(username);
  if (problem) throw new AccountError(`The username ${problem}.`);
  return { email, team, fullName, username, password, isTeamAdmin: input.isTeamAdmin ?? false };
}

export async function createAccount(
  db: Db,
  input: CreateAccountInput,
): Promise<{ id: string; password: string; username: string }> {
  const c = checkAccountInput(input);
  if (await findUserByEmail(db, c.email)) {
    throw new AccountError(`A user with the e-mail ${c.email} already exists.`);
  }
  const passwordHash = await hashPassword(c.password);
  return db.tx(async (q) => {
    const teamId = await findOrCreateTeam(q, c.team);
    let username = c.username;
    if (username !== undefined) {
      if (await usernameTaken(q, teamId, username)) {
        throw new AccountError(`The username ${username} is already taken in team ${c.team}.`);
      }
    } else {
      username = await deriveUsername(q, teamId, c.email);
    }
    const id = await insertUser(q, {
      teamId,
      email: c.email,
      fullName: c.fullName,
      username,
      passwordHash,
      isTeamAdmin: c.isTeamAdmin,
      mustChangePassword: true,
    });
    return { id, password: c.password, username };
  });
}
