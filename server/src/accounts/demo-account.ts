// First start with an empty database: a demo account so that `npm start` alone gives a person
// something to sign in with (OPERATIONS.md). Never runs once any user exists.
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { countUsers } from '../repositories/users.ts';
import { createAccount } from './create-account.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_TEAM = 'Demo';
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.txt';

export async function ensureDemoAccount(
  ctx: Pick<AppContext, 'db' | 'config'>,
  opts: { announce: boolean },
): Promise<{ email: string; password: string } | undefined> {
  if ((await countUsers(ctx.db)) > 0) return undefined;
  let password: string;
  try {
    ({ password } = await createAccount(ctx.db, {
      email: DEMO_EMAIL,
      team: DEMO_TEAM,
      fullName: 'Demo User',
      username: 'demo',
      isTeamAdmin: true,
    }));
  } catch (err) {
    // Another process sharing the PostgreSQL made the first account in the meantime.
    if ((await countUsers(ctx.db)) > 0) return undefined;
    throw err;
  }
  const file = path.join(ctx.config.dataDir, DEMO_CREDENTIALS_FILE);
  const text = [
    'Demo account created on first start. You must change this password at first login.',
    `email: ${DEMO_EMAIL}`,
    `password: ${password}`,
    '',
  ].join('\n');
  fs.writeFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  if (opts.announce) {
    // Shown once, on the console of the first start, on purpose (OPERATIONS.md).
    // eslint-disable-next-line no-console
    console.log(
      `Demo account created: ${DEMO_EMAIL} / ${password} (also in ${file}; change it at first login)`,
    );
  }
  return { email: DEMO_EMAIL, password };
}
