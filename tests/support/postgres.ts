// A throwaway PostgreSQL server from Debian's packages (apt-get install postgresql; .ci/run does
// it) with pgvector, started on a free loopback port in a temporary directory and removed on stop.
// Fails loudly when PostgreSQL or pgvector is not installed: the tests that need it never skip.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

export interface RealPostgres {
  url: string;
  stop(): void;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) {
    throw new Error('PostgreSQL is not installed (apt-get install postgresql; .ci/run does it)');
  }
  return path.join(root, newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
function run(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const res = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (res.status !== 0)
    throw new Error(`${path.basename(bin)} failed: ${res.stderr || res.stdout}`);
}

/** The product's schema needs pgvector: without it every test here would fail on its migration. */
function assertPgvector(bin: string): void {
  const version = path.basename(path.dirname(bin));
  if (!fs.existsSync(`/usr/share/postgresql/${version}/extension/vector.control`)) {
    throw new Error(
      `pgvector is not installed for PostgreSQL ${version} ` +
        '(../shared/vendor/install-pgvector builds it; .ci/run does it)',
    );
  }
}

/**
 * A detached shell that stops the server and removes its folder once `pid` has ended: a test
 * process killed by its runner (Vitest ends its forks without an 'exit' event) or with SIGKILL
 * would otherwise leave the server running. Checks once a second; a server stopped already
 * makes it a no-op.
 */
function reapWhenGone(pid: number, bin: string, data: string, dir: string): void {
  const pgCtl = `${path.join(bin, 'pg_ctl')} -D ${data} -m immediate stop`;
  const stop = process.getuid?.() === 0 ? `runuser -u postgres -- ${pgCtl}` : pgCtl;
  const script =
    `while kill -0 ${pid} 2>/dev/null; do sleep 1; done; ` +
    `if [ -d ${data} ]; then ${stop} >/dev/null 2>&1; rm -rf ${dir}; fi`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

export async function startPostgres(): Promise<RealPostgres> {
  const bin = binDir();
  assertPgvector(bin);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-postgres-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  run(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  run(path.join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-o',
    options,
    '-w',
    '-l',
    path.join(dir, 'log'),
    'start',
  ]);
  reapWhenGone(process.pid, bin, data, dir);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
