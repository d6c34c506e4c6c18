// Workers that scale (issue 41): the same BENCH_THROUGHPUT_VIDEOS videos (default 8, each a
// BENCH_THROUGHPUT_SECONDS s 640x360 H.264 clip, default 30, with words on screen) analysed by
// one `npm run worker` process, then by two (then by BENCH_THROUGHPUT_MAX workers when set), on
// the scale-out deployment: a real PostgreSQL with pgvector and S3 (s3rver), each worker with its
// own DATA_DIR. Each round starts its workers, waits until they are up, gives each one video to
// warm up with (models and OCR loaded, as in a worker that stays up), then queues every video at
// once and times the queue until the last video is completed. Prints videos per minute, the
// speed-up against one worker (bar: >= 1.8x for two), and what the round cost: the machine's CPU
// busy share over the round (2 cores here: what limits the speed-up), CPU seconds per video,
// database transactions per video and bytes the workers read from and wrote to the bucket.
// Two modes, one after the other: workers as they start by default (free to use every core: one
// alone keeps about 1.4 cores busy with its ffmpeg, model and OCR threads), then each worker held
// to one core of its own with `taskset -c N` (the deployment of one worker per core, as a
// container's cpuset would hold it). BENCH_THROUGHPUT_MODES=free or =pinned runs one of them.
// Run: npm run bench -- analysis-throughput
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../server/src/config.ts';
import { createContext, type AppContext } from '../server/src/context.ts';
import { openDatabase } from '../server/src/db/open.ts';
import { enqueueAnalysis } from '../server/src/pipeline/enqueue.ts';
import { drawtextFont, makeVideo, type Segment } from '../tests/support/media.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { startTestS3 } from '../tests/support/s3.ts';
import { startWorkerProcess } from '../tests/support/worker-process.ts';

const SOURCES = ['testsrc2', 'smptehdbars', 'mandelbrot', 'rgbtestsrc', 'testsrc'];
const SPEED_UP_TARGET = 1.8;

function segments(seconds: number, variant: number): Segment[] {
  const out: Segment[] = [];
  for (let t = 0, i = 0; t < seconds; i++) {
    const len = Math.min(4 + ((i + variant) % 3) * 2, seconds - t);
    if (len < 1) break;
    out.push({
      source: SOURCES[(i + variant) % SOURCES.length]!,
      seconds: len,
      extra:
        i === 0
          ? `drawtext=fontfile=${drawtextFont()}:text='Clip ${variant + 1}':fontsize=48:` +
            `fontcolor=white:borderw=3:bordercolor=black:x=(w-text_w)/2:y=(h-text_h)/2`
          : undefined,
      transition: i % 3 === 2 ? { kind: 'fade', seconds: 1 } : { kind: 'cut' },
    });
    t += len;
  }
  return out;
}

/**
 * CPU seconds of a process so far: its threads and its children that ended (ffmpeg), from
 * /proc/<pid>/stat (utime, stime, cutime, cstime).
 */
function processCpuS(pid: number | undefined): number {
  if (!pid) return NaN;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
}

/**
 * CPU seconds so far of every PostgreSQL process on the machine (the bench's own server and its
 * backends; the bench runs on a machine of its own), from /proc/<pid>/stat by command name.
 */
function postgresCpuS(): number {
  let sum = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres'))
        continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sum += fields.slice(11, 15).reduce((n, f) => n + Number(f), 0) / 100;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return sum;
}

/** This process's own CPU seconds so far: the bucket (s3rver), the enqueueing and the polling. */
const benchCpuS = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The machine's busy and total jiffies so far (all cores), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3]! + v[4]!;
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

type Mode = 'free' | 'pinned';

interface Round {
  mode: Mode;
  workers: number;
  seconds: number;
  perMinute: number;
  /** The machine's CPU busy share over the round (0..1 of all cores). */
  busy: number;
  /** The workers' own CPU seconds per video (their threads and ffmpeg runs). */
  workerCpuSPerVideo: number;
  /** Cores over the round: the workers', PostgreSQL's, the bench's (bucket), and idle. */
  cores: { workers: number; postgres: number; bench: number; idle: number };
  /**
   * Videos a minute while every worker was busy: from the start to the moment the first worker
   * ran out of queued videos (the round's tail, one worker finishing its last video while the
   * other idles, left out).
   */
  steadyPerMinute: number;
  xactsPerVideo: number;
  s3MbPerVideo: number;
  perWorker: number[];
  /** Warm-up videos each worker analysed before the timed round. */
  warmed: number[];
}

const isAnalysis = (d: { name: string }): boolean => d.name === 'analyse-video';

async function dirBytes(dir: string): Promise<number> {
  let n = 0;
  for (const e of await fs.promises.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) n += (await fs.promises.stat(path.join(e.parentPath, e.name))).size;
  }
  return n;
}

async function round(
  ctx: AppContext,
  env: Record<string, string>,
  teamId: string,
  files: string[],
  workers: number,
  s3Dir: string,
  mode: Mode,
): Promise<Round> {
  const cores = os.availableParallelism();
  const procs = Array.from({ length: workers }, (_, i) =>
    startWorkerProcess(
      `worker-${i + 1}`,
      { ...env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-tp-worker-')) },
      mode === 'pinned' ? { cpus: String(i % cores) } : {},
    ),
  );
  const add = async (team: string, i: number, file: string): Promise<string> => {
    const [row] = await ctx.db.query<{ id: string }>(
      `INSERT INTO videos (team_id, filename, status, output_language, about_this_video)
       VALUES ($1, $2, 'in_progress', 'en', 'A throughput clip') RETURNING id`,
      [team, `clip-${i}.mp4`],
    );
    const key = `input/${row!.id}/source.mp4`;
    await ctx.storage.put(key, fs.createReadStream(file), 'video/mp4');
    await ctx.db.query('UPDATE videos SET source_key = $2 WHERE id = $1', [row!.id, key]);
    return row!.id;
  };
  const finish = async (ids: string[], logged: number): Promise<void> => {
    for (;;) {
      const rows = await ctx.db.query<{ status: string; failure_reason: string | null }>(
        'SELECT status, failure_reason FROM videos WHERE id = ANY($1::uuid[])',
        [ids],
      );
      const failed = rows.filter((r) => r.status === 'failed').map((r) => r.failure_reason);
      if (failed.length > 0) throw new Error(`videos failed: ${failed.join('; ')}`);
      const done = procs.reduce((n, p) => n + p.done.filter(isAnalysis).length, 0);
      // Completed, and each worker's "job done" line read (it follows the video's last step).
      if (rows.every((r) => r.status === 'completed') && done >= logged) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  try {
    await Promise.all(procs.map((p) => p.ready));
    // Warm-up, untimed: one video a worker (in a team of its own), so that each has loaded its
    // models and OCR engine as a worker that stays up has; otherwise a round of 8 videos charges
    // two workers two loads and one worker one.
    const [warmTeam] = await ctx.db.query<{ id: string }>(
      `INSERT INTO teams (name) VALUES ('Throughput bench warm-up') RETURNING id`,
    );
    const warm: string[] = [];
    for (let i = 0; i < workers; i++)
      warm.push(await add(warmTeam!.id, i, files[i % files.length]!));
    for (const id of warm) await enqueueAnalysis(ctx, id);
    await finish(warm, workers);
    const warmed = procs.map((p) => p.done.filter(isAnalysis).length);
    const ids: string[] = [];
    for (const [i, file] of files.entries()) ids.push(await add(teamId, i, file));
    const s3Before = await dirBytes(s3Dir);
    const [x0] = await ctx.db.query<{ n: string }>(
      `SELECT sum(xact_commit + xact_rollback)::text AS n FROM pg_stat_database`,
    );
    const cpu0 = machineCpu();
    const own0 = procs.reduce((n, p) => n + processCpuS(p.pid()), 0);
    const pg0 = postgresCpuS();
    const bench0 = benchCpuS();
    const started = performance.now();
    const startedAt = Date.now();
    for (const id of ids) await enqueueAnalysis(ctx, id);
    await finish(ids, workers + ids.length);
    const seconds = (performance.now() - started) / 1000;
    const cpu1 = machineCpu();
    const own1 = procs.reduce((n, p) => n + processCpuS(p.pid()), 0);
    const pg1 = postgresCpuS();
    const bench1 = benchCpuS();
    const [x1] = await ctx.db.query<{ n: string }>(
      `SELECT sum(xact_commit + xact_rollback)::text AS n FROM pg_stat_database`,
    );
    const s3After = await dirBytes(s3Dir);
    const n = ids.length;
    // The first worker runs out of queued videos when the (n - workers + 1)th one completes;
    // until then every worker was busy. Conservative: the others' half-done videos not counted.
    const times = procs
      .flatMap((p, i) => p.done.filter(isAnalysis).slice(warmed[i]))
      .map((d) => d.time)
      .sort((a, b) => a - b);
    const k = n - workers + 1;
    const steady = (k / (times[k - 1]! - startedAt)) * 60_000;
    return {
      mode,
      workers,
      seconds,
      perMinute: (n / seconds) * 60,
      busy: (cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total),
      workerCpuSPerVideo: (own1 - own0) / n,
      cores: {
        workers: (own1 - own0) / seconds,
        postgres: (pg1 - pg0) / seconds,
        bench: (bench1 - bench0) / seconds,
        idle: (1 - (cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total)) * cores,
      },
      steadyPerMinute: steady,
      xactsPerVideo: (Number(x1!.n) - Number(x0!.n)) / n,
      s3MbPerVideo: (s3After - s3Before) / 2 ** 20 / n,
      perWorker: procs.map((p, i) => p.done.filter(isAnalysis).length - warmed[i]!),
      warmed,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

export async function main(
  count = Number(process.env.BENCH_THROUGHPUT_VIDEOS ?? 8),
  seconds = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 30),
  most = Number(process.env.BENCH_THROUGHPUT_MAX ?? 2),
  modes = (process.env.BENCH_THROUGHPUT_MODES ?? 'free,pinned').split(',') as Mode[],
): Promise<{ ok: boolean; rounds: Round[]; speedUp: Partial<Record<Mode, number>> }> {
  console.log(
    `analysis throughput: ${count} videos of ${seconds} s (640x360) on PostgreSQL+S3, ` +
      `1 to ${most} npm run worker processes, ${modes.join(' then ')}; ` +
      `${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  const files = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      makeVideo({
        segments: segments(seconds, i),
        width: 640,
        height: 360,
        fps: 25,
        silentAudio: true,
        preset: 'veryfast',
      }).then((m) => m.file),
    ),
  );
  const postgres = await startPostgres();
  const s3 = await startTestS3();
  const env = {
    DATABASE_URL: postgres.url,
    ...s3.env,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    ASSET_SIGNING_KEY: 'bench-asset-key-0123456789abcdef',
    UPLOAD_SIGNING_KEY: 'bench-upload-key-0123456789abcdef',
    LOG_LEVEL: 'info',
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-tp-'));
  const config = loadConfig({ ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
  const ctx = await createContext(config, await openDatabase(config));
  const rounds: Round[] = [];
  const speedUp: Partial<Record<Mode, number>> = {};
  const steadySpeedUp: Partial<Record<Mode, number>> = {};
  try {
    for (const mode of modes) {
      let first: Round | undefined;
      for (let w = 1; w <= Math.max(2, most); w++) {
        // A team per round: the same bytes twice in one team are a duplicate upload.
        const [team] = await ctx.db.query<{ id: string }>(
          `INSERT INTO teams (name) VALUES ($1) RETURNING id`,
          [`Throughput bench, ${w} workers, ${mode}`],
        );
        const loadBefore = loadAverage();
        const r = await round(ctx, env, team!.id, files, w, s3.dir, mode);
        rounds.push(r);
        first ??= r;
        const x = r.perMinute / first.perMinute;
        const xSteady = r.steadyPerMinute / first.steadyPerMinute;
        if (w === 2) speedUp[mode] = x;
        if (w === 2) steadySpeedUp[mode] = xSteady;
        const c = r.cores;
        console.log(
          `${mode === 'pinned' ? 'pinned, one core each' : 'free'}, ${w} worker${w > 1 ? 's' : ' '}: ` +
            `${count} videos in ${r.seconds.toFixed(1)} s = ` +
            `${r.perMinute.toFixed(2)} videos/min, ${x.toFixed(2)}x (every worker busy: ` +
            `${r.steadyPerMinute.toFixed(2)}/min, ${xSteady.toFixed(2)}x); each did ` +
            `[${r.perWorker.join(', ')}] (warm-up [${r.warmed.join(', ')}]); machine CPU busy ${(r.busy * 100).toFixed(0)} %, ` +
            `workers ${r.workerCpuSPerVideo.toFixed(1)} CPU-s/video; cores: workers ` +
            `${c.workers.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, bench+bucket ` +
            `${c.bench.toFixed(2)}, idle ${c.idle.toFixed(2)}; ${r.xactsPerVideo.toFixed(0)} db ` +
            `transactions/video, ${r.s3MbPerVideo.toFixed(1)} MB written to S3/video; load average ` +
            `${loadBefore} before, ${loadAverage()} after`,
        );
      }
    }
  } finally {
    await ctx.db.close();
    await s3.close();
    postgres.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  for (const mode of modes) {
    console.log(
      `two workers against one, ${mode}: ${speedUp[mode]!.toFixed(2)}x the videos per minute, ` +
        `${steadySpeedUp[mode]!.toFixed(2)}x while every worker was busy ` +
        `(target >= ${SPEED_UP_TARGET}x)`,
    );
  }
  // The bar is for the deployment the README gives: one worker per core.
  const judged = speedUp.pinned ?? speedUp.free!;
  return { ok: judged >= SPEED_UP_TARGET, rounds, speedUp };
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (r) => process.exit(r.ok ? 0 : 1),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
