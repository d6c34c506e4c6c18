// The job queue on a real PGlite: claims never overlap, leases recover crashed workers, retries
// back off, failures end in onFailed, cancels stop running handlers, the chain queues follow-ups,
// and the registry refuses missing or doubled handlers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.ts';
import type { AppContext } from '../../server/src/context.ts';
import { openTestDb, TEST_DATABASE } from '../support/test-db.ts';
import { PermanentJobError } from '../../server/src/jobs/errors.ts';
import { claimJob, jobsOfVideo, type JobRow } from '../../server/src/jobs/job-store.ts';
import { JobName } from '../../server/src/jobs/names.ts';
import { cancelJobs, enqueue } from '../../server/src/jobs/queue.ts';
import { buildRegistry, RegistryError, type JobHandler } from '../../server/src/jobs/registry.ts';
import { startWorkerLanes } from '../../server/src/jobs/lanes.ts';
import { JobWorker } from '../../server/src/jobs/worker.ts';
import { createContext } from '../../server/src/context.ts';

let ctx: AppContext;
let clock: number;
let dataDir: string;

// One database for the file (opening PGlite is the slow part); each test starts with no jobs.
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-jobs-'));
  const db = await openTestDb();
  ctx = await createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db);
  ctx.now = () => clock;
});

beforeEach(async () => {
  await ctx.db.query('DELETE FROM jobs');
  clock = Date.parse('2030-01-01T00:00:00Z');
});

afterAll(async () => {
  await ctx?.db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const id = (): string => crypto.randomUUID();

function handler(run: JobHandler['run'], extra: Partial<JobHandler> = {}): JobHandler {
  return { name: JobName.AnalyseVideo, run, ...extra };
}

async function stateOf(videoId: string): Promise<JobRow> {
  return (await jobsOfVideo(ctx.db, videoId))[0]!;
}

describe('job queue', () => {
  it('two worker loops on one database run every job exactly once', async () => {
    const runs = new Map<string, number>();
    const running = new Set<string>();
    let overlap = false;
    const h = handler(async (_c, job) => {
      if (running.has(job.id)) overlap = true;
      running.add(job.id);
      await new Promise((r) => setTimeout(r, 5));
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      running.delete(job.id);
    });
    const videos = Array.from({ length: 24 }, id);
    for (const v of videos) await enqueue(ctx, JobName.AnalyseVideo, v);
    const workers = [1, 2].map(
      (n) =>
        new JobWorker(ctx, {
          handlers: [h],
          concurrency: 3,
          pollMs: 20,
          workerId: `w${n}`,
        }),
    );
    workers.forEach((w) => w.start());
    const until = Date.now() + 20_000;
    while (runs.size < videos.length && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    await Promise.all(workers.map((w) => w.stop()));
    expect(runs.size).toBe(videos.length);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(overlap).toBe(false);
    for (const v of videos) expect((await stateOf(v)).state).toBe('done');
  });

  it('a job whose worker died is taken over once its lease has expired', async () => {
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v);
    // A worker claims it and is killed: no heartbeat, no result.
    const lost = await claimJob(ctx.db, {
      names: [JobName.AnalyseVideo],
      workerId: 'dead',
      now: clock,
      leaseMs: 30_000,
    });
    expect(lost?.state).toBe('running');
    let ran = 0;
    const rescuer = new JobWorker(ctx, {
      handlers: [handler(async () => void ran++)],
      leaseMs: 30_000,
      workerId: 'rescuer',
    });
    expect(await rescuer.runOnce()).toBe(false); // lease still held
    clock += 31_000;
    expect(await rescuer.runOnce()).toBe(true);
    expect(ran).toBe(1);
    const job = await stateOf(v);
    expect(job.state).toBe('done');
    expect(job.attempts).toBe(2);
  });

  it('retries with backoff, then fails for good and reports once', async () => {
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v, { maxAttempts: 2 });
    const failures: unknown[] = [];
    const worker = new JobWorker(ctx, {
      handlers: [
        handler(
          async () => {
            throw new Error('provider down');
          },
          { onFailed: async (_c, _j, err) => void failures.push(err) },
        ),
      ],
      backoffMs: () => 10_000,
    });
    expect(await worker.runOnce()).toBe(true);
    let job = await stateOf(v);
    expect([job.state, job.attempts, job.last_error]).toEqual([
      'queued',
      1,
      expect.stringContaining('provider down'),
    ]);
    expect(await worker.runOnce()).toBe(false); // not due yet
    clock += 10_001;
    expect(await worker.runOnce()).toBe(true);
    job = await stateOf(v);
    expect([job.state, job.attempts]).toEqual(['failed', 2]);
    expect(failures).toHaveLength(1);
  });

  it('a permanent error fails at once without retries', async () => {
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v);
    const reasons: string[] = [];
    const worker = new JobWorker(ctx, {
      handlers: [
        handler(
          async () => {
            throw new PermanentJobError('not a video file');
          },
          { onFailed: async (_c, _j, err) => void reasons.push((err as PermanentJobError).reason) },
        ),
      ],
    });
    await worker.runOnce();
    expect((await stateOf(v)).state).toBe('failed');
    expect(reasons).toEqual(['not a video file']);
  });

  it("records a final failure and the handler's own record of it together, or neither", async () => {
    // The handler's record (the video's failed status) cannot be written the first time (as when
    // the worker is killed between the two): the job must not end failed without it.
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v);
    const recorded: string[] = [];
    let hiccup = true;
    const worker = new JobWorker(ctx, {
      handlers: [
        handler(
          async () => {
            throw new PermanentJobError('not a video file');
          },
          {
            onFailed: async (_c, job, _err, q) => {
              await q.query('SELECT 1');
              if (hiccup) {
                hiccup = false;
                throw new Error('connection lost');
              }
              recorded.push(job.id);
            },
          },
        ),
      ],
      leaseMs: 30_000,
    });
    await worker.runOnce();
    expect((await stateOf(v)).state).toBe('running');
    expect(recorded).toEqual([]);
    // Its lease runs out and the failure is recorded, with the handler's part this time.
    clock += 31_000;
    expect(await worker.runOnce()).toBe(true);
    const job = await stateOf(v);
    expect(job.state).toBe('failed');
    expect(recorded).toEqual([job.id]);
  });

  // The embedded database has one process: a job left running was left by a killed one, and is
  // taken back at start. On a shared PostgreSQL another worker may be running it: only its lease
  // tells (jobs-postgres.test.ts), so a starting worker leaves it alone.
  it('takes back at start the jobs a killed process left running, on the embedded database only', async () => {
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v);
    // The process that claimed it was killed: its lease would hold for another minute.
    await claimJob(ctx.db, {
      names: [JobName.AnalyseVideo],
      workerId: 'killed',
      now: clock,
      leaseMs: 60_000,
    });
    const lanes = startWorkerLanes(ctx, { concurrency: 1 });
    try {
      const until = Date.now() + (TEST_DATABASE === 'postgres' ? 2_000 : 20_000);
      while ((await stateOf(v)).state !== 'done' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await lanes.stop();
    }
    const job = await stateOf(v);
    expect([job.state, job.attempts]).toEqual(
      TEST_DATABASE === 'postgres' ? ['running', 1] : ['done', 2],
    );
  });

  function waitingHandler(events: { cancelled: string[]; failed: unknown[] }): {
    h: JobHandler;
    isRunning: Promise<void>;
  } {
    let started!: () => void;
    const isRunning = new Promise<void>((r) => (started = r));
    const h = handler(
      (_c, _job, signal) =>
        new Promise<void>((_resolve, reject) => {
          started();
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
      {
        onCancelled: async (_c, job) => void events.cancelled.push(job.id),
        onFailed: async (_c, _j, err) => void events.failed.push(err),
      },
    );
    return { h, isRunning };
  }

  it('cancelling a video stops its running handler at once in this process', async () => {
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v);
    const events = { cancelled: [] as string[], failed: [] as unknown[] };
    const { h, isRunning } = waitingHandler(events);
    const worker = new JobWorker(ctx, { handlers: [h], pollMs: 10 });
    worker.start();
    await isRunning;
    await cancelJobs(ctx, v);
    await worker.stop();
    const job = await stateOf(v);
    expect(job.state).toBe('cancelled');
    expect(events).toEqual({ cancelled: [job.id], failed: [] });
  });

  it('a worker in another process notices a cancel at its next heartbeat', async () => {
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v);
    const events = { cancelled: [] as string[], failed: [] as unknown[] };
    const { h, isRunning } = waitingHandler(events);
    // runOnce does not listen to in-process signals: only the lease heartbeat can tell it.
    const worker = new JobWorker(ctx, { handlers: [h], leaseMs: 300 });
    const done = worker.runOnce();
    await isRunning;
    await ctx.db.query(`UPDATE jobs SET state = 'cancelled' WHERE video_id = $1`, [v]);
    await done;
    expect(events).toEqual({ cancelled: [(await stateOf(v)).id], failed: [] });
  });

  it('stopping a worker gives its running job back to the queue', async () => {
    const v = id();
    await enqueue(ctx, JobName.AnalyseVideo, v);
    let started!: () => void;
    const isRunning = new Promise<void>((r) => (started = r));
    const worker = new JobWorker(ctx, {
      handlers: [
        handler(
          (_c, _job, signal) =>
            new Promise<void>((_resolve, reject) => {
              started();
              signal.addEventListener('abort', () => reject(signal.reason as Error));
            }),
        ),
      ],
      pollMs: 10,
    });
    worker.start();
    await isRunning;
    await worker.stop();
    const job = await stateOf(v);
    expect([job.state, job.attempts, job.locked_by]).toEqual(['queued', 0, null]);
  });

  it('queues the trailer after the analysis only when asked for and when a handler exists', async () => {
    const [team] = await ctx.db.query<{ id: string }>(
      `INSERT INTO teams (name) VALUES ('T') RETURNING id`,
    );
    const insertVideo = async (instruction: string | null): Promise<string> =>
      (
        await ctx.db.query<{ id: string }>(
          `INSERT INTO videos (team_id, filename, trailer_instruction) VALUES ($1, 'a.mp4', $2) RETURNING id`,
          [team!.id, instruction],
        )
      )[0]!.id;
    const withTrailer = await insertVideo('Make it short');
    const without = await insertVideo(null);
    const analyse = handler(async () => undefined);
    const trailer: JobHandler = { name: JobName.MakeTrailer, run: async () => undefined };

    // No trailer handler registered yet: nothing follows.
    const plain = new JobWorker(ctx, { handlers: [analyse] });
    await enqueue(ctx, JobName.AnalyseVideo, withTrailer);
    await plain.runOnce();
    expect((await jobsOfVideo(ctx.db, withTrailer)).map((j) => j.name)).toEqual([
      JobName.AnalyseVideo,
    ]);

    // With the handler: only the video that asked for a trailer gets one.
    const full = new JobWorker(ctx, { handlers: [analyse, trailer] });
    await ctx.db.query('DELETE FROM jobs');
    await enqueue(ctx, JobName.AnalyseVideo, withTrailer);
    await enqueue(ctx, JobName.AnalyseVideo, without);
    await full.runOnce();
    await full.runOnce();
    const follow = await jobsOfVideo(ctx.db, withTrailer);
    expect(follow.map((j) => [j.name, j.state])).toEqual([
      [JobName.AnalyseVideo, 'done'],
      [JobName.MakeTrailer, 'queued'],
    ]);
    expect((await jobsOfVideo(ctx.db, without)).map((j) => j.name)).toEqual([JobName.AnalyseVideo]);
    // Queued is already "being created" for the page, even before a worker takes it.
    const flags = await ctx.db.query<{ id: string; is_trailer_creating: boolean }>(
      'SELECT id, is_trailer_creating FROM videos WHERE id = ANY($1::uuid[])',
      [[withTrailer, without]],
    );
    expect(Object.fromEntries(flags.map((f) => [f.id, f.is_trailer_creating]))).toEqual({
      [withTrailer]: true,
      [without]: false,
    });
  });

  it('refuses to start with a job that has two handlers or none', () => {
    const h = handler(async () => undefined);
    expect(() => buildRegistry([h, h])).toThrow(RegistryError);
    expect(() =>
      buildRegistry([{ name: JobName.MakeTrailer, run: async () => undefined }]),
    ).toThrow(/"analyse-video" has no handler/);
    expect(buildRegistry([h]).size).toBe(1);
  });
});
