// Child process for bench/upload.ts: a real server (in-memory PGlite, DATA_DIR from the env,
// no worker) with one signed-in user; prints {"url", "token"} as one JSON line on stdout.
import { hashPassword } from '../server/src/auth/passwords.ts';
import { loadConfig } from '../server/src/config.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { openPglite } from '../server/src/db/pglite.ts';
import { findOrCreateTeam, insertUser } from '../server/src/repositories/users.ts';
import { startServer } from '../server/src/server.ts';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, PORT: '0', WORKER: 'off', LOG_LEVEL: 'warn' });
  const db = await openPglite(undefined);
  await migrate(db);
  const running = await startServer(config, { logger: false, db });
  const address = running.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  const teamId = await findOrCreateTeam(db, 'Bench');
  await insertUser(db, {
    teamId,
    email: 'bench@example.com',
    fullName: 'Bench',
    username: 'bench',
    passwordHash: await hashPassword('benchpass1'),
    isTeamAdmin: false,
    mustChangePassword: false,
  });
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'benchpass1' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  console.log(JSON.stringify({ url, token }));
  process.once('SIGTERM', () => {
    void running.close().finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
