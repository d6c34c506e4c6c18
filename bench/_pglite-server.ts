// An in-memory PGlite (with pgvector) served over the PostgreSQL wire protocol from the bench's
// own process, so child processes set up like `npm run worker` reach it with DATABASE_URL. Run
// as a process of its own (bench/load.ts), it prints its URL on one line and serves until killed,
// so its statements do not share an event loop with the bench's clients.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pathToFileURL } from 'node:url';

export interface ServedPglite {
  /** postgres://… for DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

export async function servePglite(): Promise<ServedPglite> {
  const pglite = await PGlite.create({ extensions: { vector } });
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

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const served = await servePglite();
  console.log(served.url);
}
