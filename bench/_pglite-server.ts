// PGlite (with pgvector) served over the PostgreSQL wire protocol, as the tests' DATABASE_URL
// is (tests/integration/database-url.test.ts): in memory, or on disk from a data folder (the
// search bench's cached archive), created as the server creates it (db/pglite-options.ts).
// Debian's PostgreSQL here has no pgvector, which the schema needs. spawnServedPglite runs it as
// a process of its own, so its statements do not share an event loop with the bench's clients;
// run directly, it prints its URL on one line and serves until killed.
//   node --import tsx bench/_pglite-server.ts [dataDir]
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pgliteOptions } from '../server/src/db/pglite-options.ts';

export interface ServedPglite {
  /** postgres://… for DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

export async function servePglite(dataDir?: string): Promise<ServedPglite> {
  const pglite = await PGlite.create(pgliteOptions(dataDir));
  const socket = new PGLiteSocketServer({
    db: pglite,
    port: 0,
    host: '127.0.0.1',
    maxConnections: 32,
  });
  await socket.start();
  return {
    url: `postgres://postgres@${socket.getServerConn()}/postgres`,
    async stop() {
      await socket.stop();
      await pglite.close();
    },
  };
}

/** servePglite in a child process; kill the child (SIGTERM) to stop it. */
export async function spawnServedPglite(
  dataDir?: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, '_pglite-server.ts'),
      ...(dataDir ? [dataDir] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.once('exit', () => child.kill('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`database server exited (${code})`)));
  });
  return { child, url };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const served = await servePglite(process.argv[2]);
  // A data folder is closed cleanly on SIGTERM, so the next open needs no recovery.
  process.once('SIGTERM', () => void served.stop().then(() => process.exit(0)));
  console.log(served.url);
}
