// Assembles the running product from a Config: database, secrets, HTTP app (and later the
// inline worker). Used by `npm start`, `npm run dev` and the integration tests.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ensureDemoAccount } from './accounts/demo-account.ts';
import { buildApp, type BuildOptions } from './app.ts';
import type { Config } from './config.ts';
import { createContext, type AppContext } from './context.ts';
import type { Db } from './db/db.ts';
import { startInlineWorker } from './jobs/inline.ts';
import type { Stoppable } from './lifecycle/shutdown.ts';
import { warmSearch } from './search/prewarm.ts';

export interface Running extends Stoppable {
  app: FastifyInstance;
  ctx: AppContext;
  /** Stops the worker and accepting requests, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  opts: BuildOptions & { db?: Db } = {},
): Promise<Running> {
  const ctx = await createContext(config, opts.db);
  await ensureDemoAccount(ctx, { announce: opts.logger !== false });
  const app = await buildApp(ctx, opts);
  await app.listen({ port: config.port, host: config.host });
  const worker = config.worker === 'inline' ? startInlineWorker(ctx) : undefined;
  const started = performance.now();
  const warming = warmSearch(ctx.db);
  const warmed = warming.done.then(
    (read) =>
      app.log.info({ ...read, ms: Math.round(performance.now() - started) }, 'search read ahead'),
    (err: unknown) => app.log.warn({ err }, 'search not read ahead'),
  );
  const connections = new Set<Socket>();
  app.server.on('connection', (socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  let step = 'nothing';
  return {
    app,
    ctx,
    async close() {
      // The worker first: it gives its running job back to the queue while the database is open.
      step = 'worker';
      await worker?.stop();
      step = 'http';
      warming.stop();
      await warmed;
      await app.close();
      step = 'database';
      await ctx.db.close();
      step = 'nothing';
    },
    waitingFor() {
      if (step === 'worker')
        return [`the analysis worker: ${worker?.describeRunning().join(', ')}`];
      if (step === 'http')
        return [`HTTP: ${connections.size} connection(s) with a request in flight`];
      if (step === 'database') return ['the database to close'];
      return [];
    },
  };
}
