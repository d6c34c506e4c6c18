// The liveness check (Db.ping, /api/health) is answered while an analysis holds the database:
// on PGlite, a transaction holds the one connection with statements queued behind it (the
// health answer used to wait for all of them: 50-300 ms per answer during an analysis, bench
// hostile); on PostgreSQL, statements hold every connection of the pool but one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type RealPostgres } from '../../../tests/support/postgres.ts';
import { startTestServer, type TestServer } from '../../../tests/support/server.ts';
import type { Db, Queryable } from './db.ts';
import { gated } from './gate.ts';
import { openDatabase } from './open.ts';
import { openPostgres } from './postgres.ts';

/** How long the analysis holds the database: far longer than a health answer may take. */
const HOLD_MS = 3000;

/**
 * A transaction (as an analysis job runs it: not for a request) that holds the database until
 * `release`, with job statements queued behind it. `failed`: its first statement fails first.
 */
async function holdDatabase(db: Db, failed = false): Promise<{ release(): Promise<void> }> {
  let opened: () => void = () => undefined;
  const inside = new Promise<void>((r) => (opened = r));
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const tx = db
    .tx(async (q: Queryable) => {
      if (failed) await q.query('SELECT 1/0').catch(() => undefined);
      else await q.query('SELECT 1');
      opened();
      await held;
      if (failed) throw new Error('rolled back');
    })
    .catch(() => undefined);
  await inside;
  const queued = Array.from({ length: 20 }, () => db.query('SELECT 2'));
  const timer = setTimeout(release, HOLD_MS);
  return {
    async release() {
      clearTimeout(timer);
      release();
      await Promise.all([tx, ...queued]);
    },
  };
}

/** ms until `answer` settles. */
async function timed(answer: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await answer();
  return performance.now() - started;
}

describe('health while an analysis transaction holds the embedded database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 240_000);
  afterAll(() => server.close());

  for (const failed of [false, true]) {
    it(`answers at once${failed ? ', also inside a failed transaction' : ''}`, async () => {
      const hold = await holdDatabase(server.ctx.db, failed);
      const ms = await timed(async () => {
        const res = await fetch(`${server.url}/api/health`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ status: 'ok' });
      });
      await hold.release();
      // Before the change it answered only once the transaction ended (HOLD_MS).
      expect(ms).toBeLessThan(HOLD_MS / 3);
    });
  }
});

describe('ping on PostgreSQL while every connection but one is held', () => {
  let postgres: RealPostgres;
  let db: Db;
  beforeAll(async () => {
    postgres = await startPostgres();
    db = gated(await openPostgres(postgres.url));
  }, 240_000);
  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });

  it('answers ahead of the statements queued for the pool', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    // One less than the pool: the gate queues the twentieth and later behind them.
    const holding = Array.from({ length: db.connections - 1 }, () =>
      db.tx(async (q) => {
        await q.query('SELECT 1');
        await held;
      }),
    );
    const queued = Array.from({ length: 20 }, () => db.query('SELECT pg_sleep(0.1)'));
    const ms = await timed(() => db.ping());
    release();
    await Promise.all([...holding, ...queued]);
    expect(ms).toBeLessThan(1000);
  });
});

describe('DATABASE_POOL_SIZE on PostgreSQL', () => {
  let postgres: RealPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 240_000);
  afterAll(() => postgres?.stop());

  it('opens at most that many connections, however many statements wait', async () => {
    const db = gated(
      await openDatabase({ databaseUrl: postgres.url, dataDir: '/unused', databasePoolSize: 3 }),
    );
    const watcher = await openPostgres(postgres.url, 1);
    try {
      expect(db.connections).toBe(3);
      const sleeping = Array.from({ length: 12 }, () => db.query('SELECT pg_sleep(0.4)'));
      await new Promise((r) => setTimeout(r, 200));
      const [row] = await watcher.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(0.4)'",
      );
      await Promise.all(sleeping);
      expect(row!.n).toBe(3);
    } finally {
      await watcher.close();
      await db.close();
    }
  });
});
