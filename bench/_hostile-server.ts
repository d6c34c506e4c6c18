// Child process for bench/hostile.ts: a real server (fresh PGlite, temp DATA_DIR, the default
// inline worker, as in production) with one signed-in user. Writes {"url", "token"} to
// READY_FILE once it serves; on SIGUSR2 writes to STATS_FILE the longest block of its event loop,
// the CPU its main thread used and the longest and total garbage-collection pauses of its main
// thread's heap since the last SIGUSR2; stops on SIGTERM.
import fs from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { EventLoopLag } from '../server/src/lib/event-loop-lag.ts';
import { startTestServer } from '../tests/support/server.ts';

/** CPU time (ms) of this process's main thread (its task id is the process id). */
const mainThreadCpuMs = (): number =>
  Number(
    fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0],
  ) / 1e6;

const server = await startTestServer({ LOG_LEVEL: 'error' });
await server.createUser({ email: 'eve@example.com', password: 'password1' });
const token = await server.login('eve@example.com', 'password1');
const lag = new EventLoopLag().start();
let cpuFrom = mainThreadCpuMs();
// The main thread's collections (pauses of its heap; the other threads' heaps are their own).
let gcLongestMs = 0;
let gcTotalMs = 0;
const gcLogMs = process.env.HOSTILE_GC_LOG ? Number(process.env.HOSTILE_GC_LOG) : undefined;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcLongestMs = Math.max(gcLongestMs, e.duration);
    gcTotalMs += e.duration;
    // HOSTILE_GC_LOG=<ms>: each longer pause on stderr, with its kind (1 minor, 4 major,
    // 8 incremental marking, 16 weak callbacks) and the heap after it.
    if (gcLogMs !== undefined && e.duration >= gcLogMs) {
      const { kind, flags } = e.detail as { kind: number; flags: number };
      const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
      console.error(
        `gc ${e.duration.toFixed(1)} ms kind ${kind} flags ${flags} heap ${heapMb.toFixed(0)} MB`,
      );
    }
  }
}).observe({ entryTypes: ['gc'] });
process.on('SIGUSR2', () => {
  const cpu = mainThreadCpuMs();
  const stats = {
    longestBlockMs: lag.takeLongestMs(),
    mainThreadCpuMs: cpu - cpuFrom,
    gcLongestMs,
    gcTotalMs,
  };
  cpuFrom = cpu;
  gcLongestMs = 0;
  gcTotalMs = 0;
  fs.writeFileSync(process.env.STATS_FILE!, JSON.stringify(stats));
});
fs.writeFileSync(process.env.READY_FILE!, JSON.stringify({ url: server.url, token }));
process.on('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
