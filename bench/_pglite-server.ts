// An in-memory PGlite (with pgvector) served over the PostgreSQL wire protocol from the bench's
// own process, so child processes set up like `npm run worker` reach it with DATABASE_URL.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
