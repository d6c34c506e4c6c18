// `npm run worker`: an analysis worker on its own, next to servers started with WORKER=off (or
// inline), all sharing one PostgreSQL. Several may run at once; a job is only ever taken by one.
//   DATABASE_URL=postgres://... WORKER_CONCURRENCY=2 npm run worker
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/open.ts';
import { startWorkerLanes } from '../src/jobs/lanes.ts';
import { DEFAULT_LEASE_MS } from '../src/jobs/worker.ts';
import { stopOnSignals } from '../src/lifecycle/shutdown.ts';
import { createContext } from '../src/context.ts';

function concurrency(): number {
  const flag = process.argv.indexOf('--concurrency');
  const raw = flag >= 0 ? process.argv[flag + 1] : process.env.WORKER_CONCURRENCY;
  const n = Number(raw ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    throw new ConfigError(`WORKER_CONCURRENCY must be a whole number from 1 to 64 (got "${raw}")`);
  }
  return n;
}

/** How long a job of a killed worker waits before another takes it (WORKER_LEASE_MS). */
function leaseMs(): number {
  const raw = process.env.WORKER_LEASE_MS;
  const n = Number(raw ?? DEFAULT_LEASE_MS);
  if (!Number.isInteger(n) || n < 1000 || n > 3_600_000) {
    throw new ConfigError(
      `WORKER_LEASE_MS must be a whole number from 1000 to 3600000 (got "${raw}")`,
    );
  }
  return n;
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    console.error(
      'npm run worker needs DATABASE_URL (postgres://...): the embedded database can only be used ' +
        'by one process. Without DATABASE_URL, run `npm start` with WORKER=inline (the default): ' +
        'the server then runs the analysis itself.',
    );
    process.exit(2);
  }
  const n = concurrency();
  const lease = leaseMs();
  const db = await openDatabase(config);
  const ctx = await createContext(config, db);
  const lanes = startWorkerLanes(ctx, { concurrency: n, leaseMs: lease });
  ctx.log
    .child({ component: 'worker' })
    .info({ workers: lanes.workers.map((w) => w.id), concurrency: n }, 'worker started');
  let closingDb = false;
  stopOnSignals(
    {
      async close() {
        await lanes.stop();
        closingDb = true;
        await db.close();
      },
      waitingFor: () => (closingDb ? ['the database to close'] : lanes.describeRunning()),
    },
    ctx.log.child({ component: 'shutdown' }),
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
  process.exit(1);
});
