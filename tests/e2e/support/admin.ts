// The provider's admin command, run for real against a DATA_DIR while no server uses it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.ts';

/** `npm run admin -- create-user ...`; answers the initial password it printed. */
export function adminCreateUser(dataDir: string, email: string, team: string): string {
  const res = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join('server', 'bin', 'admin.ts'),
      'create-user',
      '--email',
      email,
      '--team',
      team,
    ],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
  );
  if (res.status !== 0) {
    throw new Error(`admin create-user failed (${res.status}):\n${res.stdout}\n${res.stderr}`);
  }
  const password = /Initial password:\s*(\S+)/.exec(res.stdout)?.[1];
  if (!password) throw new Error(`no initial password in the admin output:\n${res.stdout}`);
  return password;
}
