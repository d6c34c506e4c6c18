// Worker crash (issue 14 §4): `npm run worker` processes are killed with SIGKILL at random steps
// of a video's analysis, in BENCH_CRASH_RUNS runs (default 20). Each run kills 1 to 3 workers in
// a row at a random finished-step count plus a random delay, then lets one worker live. Every
// video must end completed, or failed with a reason and retryable (a retry then completes it);
// none may stay in progress. The database is an in-memory PGlite served over the wire protocol
// from this process, as in bench/analysis.ts; the workers share DATA_DIR for local storage and
// run with WORKER_LEASE_MS=2000 so a killed worker's job is taken back after 2 s.
// Run: npm run bench -- worker-crash
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config.ts';
import type { AppContext } from '../server/src/context.ts';
import { openDatabase } from '../server/src/db/open.ts';
import { jobsOfVideo } from '../server/src/jobs/job-store.ts';
import { enqueueAnalysis, retryAnalysis } from '../server/src/pipeline/enqueue.ts';
import { PIPELINE } from '../server/src/pipeline/steps.ts';
import { markRetrying } from '../server/src/repositories/videos.ts';
import { createContext } from '../server/src/context.ts';
import { makeVideo } from '../tests/support/media.ts';
import { servePglite } from './_pglite-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const LEASE_MS = 2000;

interface RunResult {
  kills: number;
  killedAfter: number[];
  end: 'completed' | 'failed' | 'in_progress' | string;
  reason: string | null;
  retriedToCompleted: boolean | undefined;
}

function spawnWorker(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server/bin/worker.ts'], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
}

async function stopWorker(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill(signal);
  await gone;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function finishedSteps(ctx: AppContext, id: string): Promise<number> {
  const rows = await ctx.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pipeline_steps WHERE video_id = $1',
    [id],
  );
  return rows[0]!.n;
}

async function statusOf(ctx: AppContext, id: string) {
  const rows = await ctx.db.query<{ status: string; failure_reason: string | null }>(
    'SELECT status, failure_reason FROM videos WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

async function attempts(ctx: AppContext, id: string): Promise<number> {
  const jobs = await jobsOfVideo(ctx.db, id);
  return jobs.reduce((n, j) => n + j.attempts, 0);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await sleep(20);
}

/** Waits until the video's analysis job is no longer queued or running. */
async function settled(ctx: AppContext, id: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const jobs = await jobsOfVideo(ctx.db, id);
    if (jobs.every((j) => j.state !== 'queued' && j.state !== 'running')) return true;
    await sleep(100);
  }
  return false;
}

async function oneRun(
  ctx: AppContext,
  env: NodeJS.ProcessEnv,
  teamId: string,
  file: string,
): Promise<RunResult> {
  const [row] = await ctx.db.query<{ id: string }>(
    `INSERT INTO videos (team_id, filename, status) VALUES ($1, 'crash.mp4', 'uploading') RETURNING id`,
    [teamId],
  );
  const id = row!.id;
  const key = `input/${id}/source.mp4`;
  await ctx.storage.put(key, fs.readFileSync(file), 'video/mp4');
  await ctx.db.query('UPDATE videos SET source_key = $2 WHERE id = $1', [id, key]);
  await enqueueAnalysis(ctx, id);

  const kills = 1 + Math.floor(Math.random() * 3);
  const killedAfter: number[] = [];
  for (let k = 0; k < kills; k++) {
    const claimsBefore = await attempts(ctx, id);
    const proc = spawnWorker(env);
    // The kill point counts from this worker's own claim (a slow start must not be the target).
    await until(async () => (await attempts(ctx, id)) > claimsBefore, 120_000);
    const atStep = Math.floor(Math.random() * PIPELINE.length);
    const extraMs = Math.floor(Math.random() * 400);
    const deadline = Date.now() + 120_000;
    let done = false;
    while (Date.now() < deadline) {
      if ((await finishedSteps(ctx, id)) >= atStep) break;
      if (await settled(ctx, id, 0)) {
        done = true;
        break;
      }
      await sleep(20);
    }
    if (!done) await sleep(extraMs);
    killedAfter.push(await finishedSteps(ctx, id));
    await stopWorker(proc, 'SIGKILL');
    if (done || (await settled(ctx, id, 0))) break;
  }

  // One worker lives: it takes the job back once the dead one's lease has run out.
  const survivor = spawnWorker(env);
  const ok = await settled(ctx, id, 180_000);
  let end = await statusOf(ctx, id);
  let retriedToCompleted: boolean | undefined;
  if (ok && end.status === 'failed') {
    // Retryable: the retry route's two calls, then the same worker finishes it.
    const marked = await markRetrying(ctx.db, teamId, id);
    if (marked?.retried) await retryAnalysis(ctx, id);
    retriedToCompleted =
      (await settled(ctx, id, 180_000)) && (await statusOf(ctx, id)).status === 'completed';
  }
  await stopWorker(survivor, 'SIGTERM');
  if (!ok) end = await statusOf(ctx, id);
  return {
    kills: killedAfter.length,
    killedAfter,
    end: end.status,
    reason: end.failure_reason,
    retriedToCompleted,
  };
}

export async function main(
  runs = Number(process.env.BENCH_CRASH_RUNS ?? 20),
): Promise<{ ok: boolean; completed: number; failed: number; stuck: number }> {
  const made = await makeVideo({
    segments: [
      { source: 'testsrc2', seconds: 3 },
      { source: 'smptebars', seconds: 3, transition: { kind: 'cut' } },
      { source: 'mandelbrot', seconds: 3, transition: { kind: 'fade', seconds: 1 } },
    ],
    width: 640,
    height: 360,
    silentAudio: true,
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-crash-'));
  const database = await servePglite();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    WORKER_LEASE_MS: String(LEASE_MS),
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(env);
  const ctx = await createContext(config, await openDatabase(config));
  const results: RunResult[] = [];
  try {
    const [team] = await ctx.db.query<{ id: string }>(
      `INSERT INTO teams (name) VALUES ('Crash bench') RETURNING id`,
    );
    for (let i = 0; i < runs; i++) {
      const r = await oneRun(ctx, env, team!.id, made.file);
      results.push(r);
      console.log(
        `run ${String(i + 1).padStart(2)}: killed ${r.kills}x after steps [${r.killedAfter.join(', ')}]` +
          ` -> ${r.end}${r.reason ? ` ("${r.reason}")` : ''}` +
          (r.retriedToCompleted === undefined
            ? ''
            : `; retry ${r.retriedToCompleted ? 'completed' : 'did NOT complete'}`),
      );
    }
  } finally {
    await ctx.db.close();
    await database.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const completed = results.filter((r) => r.end === 'completed').length;
  const failed = results.filter((r) => r.end === 'failed' && r.reason).length;
  const stuck = results.length - completed - failed;
  const retryBroken = results.filter((r) => r.retriedToCompleted === false).length;
  const kills = results.reduce((n, r) => n + r.kills, 0);
  console.log(
    `worker crash: ${results.length} runs, ${kills} SIGKILLs; completed ${completed}, ` +
      `failed with a reason ${failed} (retried to completed: ${failed - retryBroken}), ` +
      `in progress or failed without a reason ${stuck}`,
  );
  return { ok: stuck === 0 && retryBroken === 0, completed, failed, stuck };
}
