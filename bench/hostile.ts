// Two parts. The size of the hostile-input catalogue (bench/_hostile-cases.ts). Then the hostile files of issue 28 sent to a real server (its own process, the default inline
// worker): for each, the slowest /api/health answer while it is handled (bar: 100 ms), the peak
// memory growth (PSS) of the server and its ffmpeg children (bar: 300 MB), and the time until
// its video ends. A plain 3 s clip is measured first as the baseline of the same conditions.
// Each file is sent HOSTILE_RUNS times (default 3) and the range of each figure is printed (one
// file's summed RSS varied from 75 to 338 MB between runs), with the server's longest event-loop
// block and its main thread's CPU, so a slow health answer is told apart from a blocked loop, and
// the database's part of the slowest health answer (its Server-Timing, as the server's thread saw
// it: the queue and the statement, plus any loop delay in reading the answer).
// HOSTILE_FILES=0 counts the cases only; HOSTILE_ONLY=<words> sends only the files whose name
// contains them (e.g. HOSTILE_ONLY=plain for the baseline alone). The server runs with the V8
// flags of `npm start` (package.json), and HOSTILE_NODE_FLAGS after them (for trials);
// HOSTILE_GC_LOG=<ms> has it print each longer GC pause of its main thread (_hostile-server.ts).
import os from 'node:os';
import { countCases } from './_hostile-cases.ts';
import { type Scenario, SCENARIOS } from './_hostile-files.ts';
import { send, serverNodeFlags, startServer } from './_hostile-client.ts';
import { healthPoller, treeMemory } from './_hostile-gauges.ts';

export async function main(): Promise<{ ok: boolean; cases: number }> {
  const counted = countCases();
  if (process.env.HOSTILE_FILES === '0') return counted;
  const filesOk = await measureFiles();
  return { ok: counted.ok && filesOk, cases: counted.cases };
}

const HEALTH_BAR_MS = 100;
const MEMORY_BAR_MB = 300;

const RUNS = Number(process.env.HOSTILE_RUNS ?? 3);

interface Run {
  healthMs: number;
  /** The database's part of the slowest health answer. */
  healthDbMs: number;
  growthMb: number;
  endedS: number;
  /** Memory (PSS) still above the run's base 2 s after its video ended. */
  keptMb: number;
  blockMs: number;
  cpuMs: number;
  /** The server main thread's longest garbage-collection pause, and the sum of them. */
  gcMs: number;
  gcTotalMs: number;
  outcome: string;
}

const range = (runs: Run[], f: (r: Run) => number, digits = 0): string => {
  const v = runs.map(f);
  const [lo, hi] = [Math.min(...v).toFixed(digits), Math.max(...v).toFixed(digits)];
  return lo === hi ? lo : `${lo}-${hi}`;
};

async function measureOnce(
  server: Awaited<ReturnType<typeof startServer>>,
  s: Scenario,
): Promise<Run> {
  // Settled: the analysis before has released what it held.
  await new Promise((r) => setTimeout(r, 2000));
  const base = treeMemory(server.pid);
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, treeMemory(server.pid))), 100);
  await server.stats(); // starts the server's figures from here
  const health = healthPoller(server.ready.url);
  await health.ready;
  const started = performance.now();
  let upload = '';
  const outcome = await send(server.ready, s, () => {
    const mb = (peak - base) / (1024 * 1024);
    upload = ` (upload alone: ${health.slowest().toFixed(0)} ms, +${mb.toFixed(0)} MB)`;
  });
  const endedS = (performance.now() - started) / 1000;
  const slowest = await health.stop();
  const { longestBlockMs, mainThreadCpuMs, gcLongestMs, gcTotalMs } = await server.stats();
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000));
  const mb = 1024 * 1024;
  return {
    healthMs: slowest.ms,
    healthDbMs: slowest.dbMs,
    growthMb: (peak - base) / mb,
    endedS,
    keptMb: (treeMemory(server.pid) - base) / mb,
    blockMs: longestBlockMs,
    cpuMs: mainThreadCpuMs,
    gcMs: gcLongestMs,
    gcTotalMs,
    outcome: `${outcome.people === '-' ? '' : `people ${outcome.people}, `}${outcome.status}${upload}`,
  };
}

async function measureFiles(): Promise<boolean> {
  console.log(
    `\nhostile files (a real server, inline worker; ${RUNS} runs each, ranges min-max; ` +
      `load average ${os.loadavg()[0]!.toFixed(1)}: compare with the baseline; server flags ` +
      `${serverNodeFlags().join(' ') || 'none'})`,
  );
  // Made before the server starts, so their ffmpeg runs are not measured.
  for (const s of SCENARIOS) {
    await s.video();
    await s.people?.();
  }
  const server = await startServer();
  let ok = true;
  try {
    // Unmeasured: the first analysis loads the models (about 300 MB, kept), whatever the file.
    await send(server.ready, SCENARIOS[0]!);
    console.log(
      `${'file'.padEnd(52)} ${'health max'.padStart(12)} ${'its db'.padStart(10)} ` +
        `${'loop block'.padStart(12)} ${'GC max'.padStart(10)} ${'GC sum'.padStart(12)} ` +
        `${'main CPU'.padStart(12)} ${'PSS +MB'.padStart(10)} ${'kept MB'.padStart(10)} ` +
        `${'ends in s'.padStart(10)}  outcome (last run)`,
    );
    for (const s of SCENARIOS.filter((f) => f.name.includes(process.env.HOSTILE_ONLY ?? ''))) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measureOnce(server, s));
      const worst = (f: (r: Run) => number): number => Math.max(...runs.map(f));
      ok &&= worst((r) => r.healthMs) < HEALTH_BAR_MS && worst((r) => r.growthMb) < MEMORY_BAR_MB;
      console.log(
        `${s.name.padEnd(52)} ${`${range(runs, (r) => r.healthMs)} ms`.padStart(12)} ` +
          `${`${range(runs, (r) => r.healthDbMs)} ms`.padStart(10)} ` +
          `${`${range(runs, (r) => r.blockMs)} ms`.padStart(12)} ` +
          `${`${range(runs, (r) => r.gcMs)} ms`.padStart(10)} ` +
          `${`${range(runs, (r) => r.gcTotalMs)} ms`.padStart(12)} ` +
          `${`${range(runs, (r) => r.cpuMs)} ms`.padStart(12)} ` +
          `${range(runs, (r) => r.growthMb).padStart(10)} ${range(runs, (r) => r.keptMb).padStart(10)} ` +
          `${range(runs, (r) => r.endedS, 1).padStart(10)}  ${runs.at(-1)!.outcome}`,
      );
    }
  } finally {
    server.stop();
  }
  console.log(
    `bars: /api/health < ${HEALTH_BAR_MS} ms, memory growth (PSS) < ${MEMORY_BAR_MB} MB (every run); ` +
      `load average now ${os.loadavg()[0]!.toFixed(1)}`,
  );
  return ok;
}
