// Workers outside the happy path: `npm run worker` refuses the embedded database, and a worker
// that dies in the middle of an analysis is replaced by another that resumes at the first
// unfinished step once the lease has run out.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJob, jobsOfVideo } from '../../server/src/jobs/job-store.ts';
import { productHandlers } from '../../server/src/jobs/handlers.ts';
import { JobName } from '../../server/src/jobs/names.ts';
import { JobWorker } from '../../server/src/jobs/worker.ts';
import { analyseVideo } from '../../server/src/pipeline/analyse-video.ts';
import { enqueueAnalysis } from '../../server/src/pipeline/enqueue.ts';
import { makeVideo } from '../support/media.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off', LOG_LEVEL: 'silent' });
});

afterAll(async () => {
  await server?.close();
});

describe('npm run worker', () => {
  it('refuses to run without DATABASE_URL and says why', () => {
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/bin/worker.ts'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('needs DATABASE_URL');
  });
});

describe('a worker killed mid-job', () => {
  it('is replaced after its lease expires and the analysis resumes where it stopped', async () => {
    const { ctx } = server;
    let clock = Date.now();
    ctx.now = () => clock;
    const ownerId = await server.createUser({ email: 'crash@example.com', password: 'password1' });
    const made = await makeVideo({
      segments: [
        { source: 'testsrc', seconds: 2 },
        { source: 'smptebars', seconds: 2, transition: { kind: 'cut' } },
      ],
    });
    const [row] = await ctx.db.query<{ id: string }>(
      `INSERT INTO videos (team_id, owner_id, filename, status)
       SELECT team_id, id, 'crash.mp4', 'uploading' FROM users WHERE id = $1 RETURNING id`,
      [ownerId],
    );
    const id = row!.id;
    await ctx.storage.put(`input/${id}/source.mp4`, fs.readFileSync(made.file));
    await ctx.db.query('UPDATE videos SET source_key = $2 WHERE id = $1', [
      id,
      `input/${id}/source.mp4`,
    ]);
    await enqueueAnalysis(ctx, id);

    // The doomed worker takes the job and gets as far as the scenes before it "dies": its work
    // stops without any result being written to the job (as with SIGKILL).
    const dead = await claimJob(ctx.db, {
      names: [JobName.AnalyseVideo],
      workerId: 'doomed',
      now: clock,
      leaseMs: 60_000,
    });
    expect(dead?.video_id).toBe(id);
    const kill = new AbortController();
    const watcher = setInterval(() => {
      void ctx.db
        .query(`SELECT 1 FROM pipeline_steps WHERE video_id = $1 AND step = 'scenes'`, [id])
        .then((r) => r.length > 0 && kill.abort(new Error('killed')));
    }, 10);
    await analyseVideo(ctx, id, kill.signal).catch(() => undefined);
    clearInterval(watcher);
    const before = await ctx.db.query<{ step: string; finished_at: Date }>(
      'SELECT step, finished_at FROM pipeline_steps WHERE video_id = $1',
      [id],
    );
    expect(before.map((s) => s.step)).toEqual(
      expect.arrayContaining(['probe', 'rendition', 'scenes']),
    );
    expect(before.map((s) => s.step)).not.toContain('index');

    const rescuer = new JobWorker(ctx, {
      handlers: productHandlers(),
      leaseMs: 60_000,
    });
    expect(await rescuer.runOnce()).toBe(false); // the dead worker's lease still holds
    clock += 61_000;
    expect(await rescuer.runOnce()).toBe(true);

    const [video] = await ctx.db.query<{ status: string }>(
      'SELECT status FROM videos WHERE id = $1',
      [id],
    );
    expect(video!.status).toBe('completed');
    const jobs = await jobsOfVideo(ctx.db, id);
    expect(jobs.map((j) => [j.state, j.attempts, j.locked_by])).toEqual([['done', 2, null]]);
    // Finished steps were not done again.
    const after = await ctx.db.query<{ step: string; finished_at: Date }>(
      'SELECT step, finished_at FROM pipeline_steps WHERE video_id = $1',
      [id],
    );
    for (const s of before) {
      expect(after.find((a) => a.step === s.step)?.finished_at.getTime()).toBe(
        s.finished_at.getTime(),
      );
    }
    expect(after.map((s) => s.step)).toContain('index');
  });
});
