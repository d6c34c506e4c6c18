// Long tasks in Chromium, for the render benches: the longest task's CPU time read from a
// trace, and the one way their figures are printed against the 50 ms bar.
import os from 'node:os';
import type { Page } from 'playwright-core';

export const LONG_TASK_BAR_MS = 50;

/** What `markStart` leaves in the page's trace. */
const START_MARK = 'bench:measured-step';

/**
 * Marks in the trace where the measured step starts: the tasks before it (enabling the trace's
 * categories costs the renderer a task of its own, 100-300 ms CPU on a loaded machine) are not
 * the page's.
 */
export async function markStart(page: Page): Promise<void> {
  await page.evaluate((label) => console.timeStamp(label), START_MARK);
}

/**
 * CPU time (ms) of the longest task on any thread named CrRendererMain in a trace; after the
 * `markStart` mark when the trace has one.
 */
export function longestTaskCpu(trace: Buffer): number {
  const parsed = JSON.parse(trace.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}/${e.tid}`),
  );
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === START_MARK);
  const from = mark?.ts ?? 0;
  let longest = 0;
  for (const e of events) {
    if (e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}/${e.tid}`) && e.ts >= from) {
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
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { message?: string } };
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
