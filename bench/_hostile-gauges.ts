// What bench/hostile.ts measures beside the server's own figures: the memory of the server's
// process tree, and the slowest /api/health answer, polled from a thread of its own.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * Memory in bytes of the process and all its descendants (ffmpeg runs; worker threads are in it):
 * their PSS, which splits shared pages between the processes sharing them. Summed RSS counted a
 * child caught between its fork and its exec as a whole second copy of the server (a 767 MB
 * process spawning `true` peaked at 1,653 MB summed RSS, 810 MB PSS), so one run of a file grew
 * 75 MB and the next 338 MB by when the 100 ms sample fell.
 */
export function treeMemory(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Ended meanwhile.
    }
  }
  const pss = (p: number): number => {
    try {
      const rollup = fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      return 0; // Ended meanwhile.
    }
  };
  let total = 0;
  const walk = (p: number): void => {
    total += pss(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return total;
}

interface Slowest {
  /** The slowest answer, as the client waited for it (ms). */
  ms: number;
  /** Of it, the database's part (its queue and `SELECT 1`), from the answer's Server-Timing. */
  dbMs: number;
}

/**
 * Polls /api/health every 50 ms from a thread of its own, so the bench building and sending a
 * 180 MB request on its main thread does not delay the polls; stop() answers the slowest and its
 * database part.
 */
export function healthPoller(url: string): {
  /** Its client is warm: the polls measured start now. */
  ready: Promise<void>;
  slowest(): number;
  stop(): Promise<Slowest>;
} {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let stop = false;
    parentPort.once('message', () => (stop = true));
    (async () => {
      // Unmeasured: the first fetch of a new thread loads and compiles its HTTP client and
      // connects (80-115 ms on a quiet machine), which the slowest answer counted before.
      await (await fetch(workerData + '/api/health')).arrayBuffer();
      parentPort.postMessage({ ready: true });
      let slowest = 0;
      let slowestDb = 0;
      while (!stop) {
        const started = performance.now();
        const res = await fetch(workerData + '/api/health');
        await res.arrayBuffer();
        const ms = performance.now() - started;
        if (ms > slowest) {
          slowest = ms;
          const timing = /db;dur=([0-9.]+)/.exec(res.headers.get('server-timing') ?? '');
          slowestDb = timing ? Number(timing[1]) : NaN;
        }
        parentPort.postMessage({ slowest, slowestDb, final: false });
        await new Promise((r) => setTimeout(r, 50));
      }
      parentPort.postMessage({ slowest, slowestDb, final: true });
    })();`,
    { eval: true, workerData: url },
  );
  let latest = 0;
  let final: (s: Slowest) => void = () => undefined;
  let started: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (started = resolve));
  type Message = { ready: true } | { slowest: number; slowestDb: number; final: boolean };
  worker.on('message', (m: Message) => {
    if ('ready' in m) return started();
    latest = m.slowest;
    if (m.final) final({ ms: m.slowest, dbMs: m.slowestDb });
  });
  return {
    ready,
    slowest: () => latest,
    async stop() {
      const answer = new Promise<Slowest>((resolve) => (final = resolve));
      worker.postMessage('stop');
      const slowest = await answer;
      await worker.terminate();
      return slowest;
    },
  };
}
