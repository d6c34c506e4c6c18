// The job queue on a real PostgreSQL server (Debian's), with several workers on their own
// connection pools as separate `npm run worker` processes would be: every job is taken exactly
// once, and a job whose worker died is taken over by exactly one other worker after its lease.
// The database is the whole migrated schema, pgvector included (tests/support/test-db.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/src/db/db.ts';
import { openPostgres } from '../../server/src/db/postgres.ts';
import { claimJob, finishJob, insertJob } from '../../server/src/jobs/job-store.ts';
import { newPostgresDatabase } from '../support/test-db.ts';

const WORKERS = 6;
const JOBS = 240;
const NAME = 'analyse';
let workers: Db[] = [];

beforeAll(async () => {
  const url = await newPostgresDatabase();
  workers = await Promise.all(Array.from({ length: WORKERS }, () => openPostgres(url)));
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((db) => db.close()));
});

const randomUuid = () => crypto.randomUUID();

describe('job queue on PostgreSQL with several workers', () => {
  it('gives every job to exactly one worker', async () => {
    const now = Date.now();
    for (let i = 0; i < JOBS; i++) {
      await insertJob(workers[0]!, {
        name: NAME,
        videoId: randomUuid(),
        runAt: now - 1000 + i,
        maxAttempts: 3,
      });
    }
    const taken = new Map<string, string[]>();
    await Promise.all(
      workers.map(async (db, w) => {
        const workerId = `worker-${w}`;
        // Each worker runs a few claim loops at once, like a worker with concurrency > 1.
        const loop = async (): Promise<void> => {
          for (;;) {
            const job = await claimJob(db, { names: [NAME], workerId, now, leaseMs: 60_000 });
            if (!job) return;
            taken.set(job.id, [...(taken.get(job.id) ?? []), workerId]);
            await finishJob(db, { id: job.id, workerId, now, state: 'done' });
          }
        };
        await Promise.all([loop(), loop(), loop()]);
      }),
    );
    expect(taken.size).toBe(JOBS);
    expect([...taken.values()].filter((by) => by.length > 1)).toEqual([]);
    const byWorker = new Set([...taken.values()].map((by) => by[0]));
    expect(byWorker.size).toBeGreaterThan(1);
    const [left] = await workers[0]!.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE state <> 'done'`,
    );
    expect(left!.n).toBe(0);
  }, 120_000);

  it('hands a job whose worker died to exactly one other worker once its lease ran out', async () => {
    const t0 = Date.now();
    const id = await insertJob(workers[0]!, {
      name: NAME,
      videoId: randomUuid(),
      runAt: t0,
      maxAttempts: 3,
    });
    const first = await claimJob(workers[0]!, {
      names: [NAME],
      workerId: 'dies',
      now: t0,
      leaseMs: 1000,
    });
    expect(first?.id).toBe(id);

    // Before the lease ends nobody else takes it.
    const early = await Promise.all(
      workers.map((db, w) =>
        claimJob(db, { names: [NAME], workerId: `w${w}`, now: t0 + 500, leaseMs: 60_000 }),
      ),
    );
    expect(early.filter(Boolean)).toEqual([]);

    // After it, all try at once: one wins, on its second attempt.
    const late = await Promise.all(
      workers.map((db, w) =>
        claimJob(db, { names: [NAME], workerId: `w${w}`, now: t0 + 1500, leaseMs: 60_000 }),
      ),
    );
    const winners = late.filter((job) => job !== undefined);
    expect(winners.map((job) => job.id)).toEqual([id]);
    expect(winners[0]!.attempts).toBe(2);
    // The dead worker's late finish changes nothing.
    expect(
      await finishJob(workers[0]!, { id: id!, workerId: 'dies', now: t0 + 2000, state: 'done' }),
    ).toBe(false);
  }, 60_000);
});
