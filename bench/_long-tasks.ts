// Long tasks in Chromium, for the render benches: the longest task's CPU time read from a
// trace, and the one way their figures are printed against the 50 ms bar.
import os from 'node:os';

export const LONG_TASK_BAR_MS = 50;

/** CPU time (ms) of the longest task on any thread named CrRendererMain in a trace. */
export function longestTaskCpu(trace: Buffer): number {
  const parsed = JSON.parse(trace.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}/${e.tid}`),
  );
  let longest = 0;
  for (const e of events) {
    if (e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}/${e.tid}`)) {
      longest = Math.max(longest, (e.tdur ?? e.dur ?? 0) / 1000);
    }
  }
  return longest;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Prints each measured step's longest task (wall and CPU); answers whether all met the bar. */
export function reportLongTasks(figures: Record<string, { wall: number; cpu: number }>): boolean {
  const show = (ms: number) => (ms === 0 ? 'none over 50 ms' : `${ms.toFixed(0)} ms`);
  for (const [name, { wall, cpu }] of Object.entries(figures)) {
    console.log(`longest task, ${name}: ${show(wall)} wall, ${cpu.toFixed(0)} ms CPU`);
  }
  console.log(`load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`);
  const ok = Object.values(figures).every(({ cpu }) => cpu <= LONG_TASK_BAR_MS);
  const bar = LONG_TASK_BAR_MS;
  console.log(ok ? `bar met: no long task over ${bar} ms` : `BAR MISSED (${bar} ms)`);
  return ok;
}
