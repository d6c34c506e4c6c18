// `npm run admin -- ...` as its own process, the way an operator runs it (OPERATIONS.md).
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs server/bin/admin.ts with `args`, its environment being this process's plus `env`. */
export function runAdmin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'server/bin/admin.ts'), ...args],
      { cwd: root, env: { ...process.env, ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
