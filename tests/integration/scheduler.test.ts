// Recurring jobs: each schedule queues exactly one job per slot however many workers look at
// once, on PGlite (worker loops sharing the embedded database) and on a real PostgreSQL (several
// workers on their own connection pools, as separate `npm run worker` processes would be).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.ts';
import type { AppContext } from '../../server/src/context.ts';
import type { Db } from '../../server/src/db/db.ts';
import { openTestDb } from '../support/test-db.ts';
import { openPostgres } from '../../server/src/db/postgres.ts';
import { JobName } from '../../server/src/jobs/names.ts';
import type { JobHandler } from '../../server/src/jobs/registry.ts';
import { ensureSchedules, queueDueSchedules } from '../../server/src/jobs/schedule-store.ts';
import { SCHEDULES } from '../../server/src/jobs/schedules.ts';
import { JobWorker } from '../../server/src/jobs/worker.ts';
import { createContext } from '../../server/src/context.ts';
import { startPostgres, type RealPostgres } from '../support/postgres.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2030-01-01T00:00:00Z');

/** How many jobs each schedule has queued so far. */
async function queuedCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.query<{ name: string; n: number }>(
    `SELECT name, count(*)::int AS n FROM jobs WHERE name = ANY($1::text[]) GROUP BY name`,
    [SCHEDULES.map((s) => s.name)],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

describe('scheduler on PGlite, four workers', () => {
  let ctx: AppContext;
  let clock: number;
  let dataDir: string;
  let workers: JobWorker[];
  const runs: string[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-schedules-'));
    const db = await openTestDb();
    ctx = await createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db);
    ctx.now = () => clock;
    // The product's schedules with handlers that only count their runs.
    const handlers: JobHandler[] = [
      { name: JobName.AnalyseVideo, run: async () => undefined },
      ...SCHEDULES.map((s) => ({ name: s.name, run: async () => void runs.push(s.name) })),
    ];
    workers = [1, 2, 3, 4].map((n) => new JobWorker(ctx, { handlers, workerId: `w${n}` }));
  });
  beforeEach(() => {
    runs.length = 0;
  });
  afterAll(async () => {
    await ctx?.db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every worker looks at the schedules at the same moment, then they drain the queue. */
  async function tick(at: number): Promise<string[]> {
    clock = at;
    await Promise.all(workers.map((w) => w.queueDueSchedules()));
    for (;;) {
      const ran = await Promise.all(workers.map((w) => w.runOnce()));
      if (!ran.some(Boolean)) break;
    }
    return [...runs].sort();
  }

  it('runs each schedule once per slot across the workers, and catches up missed slots once', async () => {
    const all = SCHEDULES.map((s) => s.name).sort();
    const hourly = SCHEDULES.filter((s) => s.everyMs === HOUR)
      .map((s) => s.name)
      .sort();
    expect(hourly.length).toBeGreaterThan(0);
    // A fresh installation runs every schedule once at start.
    expect(await tick(T0)).toEqual(all);
    runs.length = 0;
    expect(await tick(T0 + 30 * 60_000)).toEqual([]);
    expect(await tick(T0 + HOUR)).toEqual(hourly);
    runs.length = 0;
    // The daily retention run comes a day later, once.
    expect(await tick(T0 + DAY + 1)).toEqual(all);
    runs.length = 0;
    // All processes were down for a week: each schedule runs once, not once per missed slot.
    expect(await tick(T0 + 8 * DAY + 5)).toEqual(all);
    runs.length = 0;
    expect(await tick(T0 + 8 * DAY + 10)).toEqual([]);
    expect(await queuedCounts(ctx.db)).toEqual(
      Object.fromEntries(SCHEDULES.map((s) => [s.name, s.everyMs === HOUR ? 4 : 3])),
    );
  });

  it('queues no second run while the previous one is still queued', async () => {
    const start = T0 + 20 * DAY;
    clock = start;
    await Promise.all(workers.map((w) => w.queueDueSchedules()));
    const before = await queuedCounts(ctx.db);
    clock = start + 2 * DAY; // nobody ran the jobs meanwhile
    await Promise.all(workers.map((w) => w.queueDueSchedules()));
    expect(await queuedCounts(ctx.db)).toEqual(before);
  });
});

describe('scheduler on PostgreSQL, six workers on their own pools', () => {
  let postgres: RealPostgres;
  let pools: Db[] = [];

  /** The jobs table (migration 004) and the schedules table (migration 007) only. */
  function ddl(): string {
    const read = (f: string) => fs.readFileSync(path.join('server', 'migrations', f), 'utf8');
    const jobs = read('004_jobs.sql');
    const schedules = read('007_background.sql');
    return (
      jobs.slice(0, jobs.indexOf('CREATE TABLE pipeline_steps')) +
      schedules.slice(0, schedules.indexOf('CREATE TABLE mail_outbox'))
    );
  }

  beforeAll(async () => {
    postgres = await startPostgres();
    pools = await Promise.all(Array.from({ length: 6 }, () => openPostgres(postgres.url)));
    await pools[0]!.exec(ddl());
  }, 120_000);
  afterAll(async () => {
    await Promise.all(pools.map((db) => db.close()));
    postgres?.stop();
  });

  it('queues exactly one job per schedule and slot when all workers look at once', async () => {
    const names = SCHEDULES.map((s) => s.name);
    await Promise.all(pools.map((db) => ensureSchedules(db, names, T0)));
    const expected: Record<string, number> = {};
    // Twelve slots: every hour for half a day; each time 6 workers x 3 loops race.
    for (let h = 0; h < 12; h++) {
      const now = T0 + h * HOUR + 1;
      const queued = await Promise.all(
        pools.flatMap((db) =>
          [0, 1, 2].map(() => queueDueSchedules(db, { schedules: SCHEDULES, now })),
        ),
      );
      for (const name of queued.flat()) expected[name] = (expected[name] ?? 0) + 1;
      // The runs finish before the next slot, as the workers would do them.
      await pools[0]!.query(`UPDATE jobs SET state = 'done' WHERE state = 'queued'`);
    }
    const counts = await queuedCounts(pools[0]!);
    expect(counts).toEqual(expected);
    for (const s of SCHEDULES) {
      expect(counts[s.name]).toBe(s.everyMs === HOUR ? 12 : 1);
    }
  }, 120_000);
});
