// The server's memory for the load bench (issue 31): its RSS read from /proc, at rest after its
// start, each second after an analysis, and the four states printed against the issue's bars.
import fs from 'node:fs';
import { DEFAULT_MODELS_IDLE_UNLOAD_S } from '../server/src/config.ts';

export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The server's RSS once it has settled after its start (its search read-ahead and first
 * collections done): sampled each second until it moves less than 2 MB in 5 s, 60 s at most.
 */
export async function restingRss(pid: number): Promise<number> {
  const seen: number[] = [];
  for (let s = 0; s < 60; s++) {
    await sleep(1000);
    seen.push(rssMb(pid));
    if (seen.length >= 5 && Math.abs(seen.at(-1)! - seen.at(-5)!) < 2) break;
  }
  return seen.at(-1)!;
}

/** The RSS each second for `seconds` after the analysis. */
export async function rssAfter(pid: number, seconds: number): Promise<number[]> {
  const seen: number[] = [];
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    seen.push(rssMb(pid));
  }
  return seen;
}

/** Prints the four states against the issue's bars; false when one is not met. */
export function reportMemory(
  rest: number,
  underLoad: number,
  analysis: { peakMb: number; seconds: number; status: string },
  after: number[],
): boolean {
  const idle = process.env.MODELS_IDLE_UNLOAD_S ?? `${DEFAULT_MODELS_IDLE_UNLOAD_S} (default)`;
  const at = (s: number): number => after[Math.min(after.length, s) - 1] ?? 0;
  const end = Math.min(after.length, 300);
  const under400 = after.findIndex((mb, i) => after.slice(i).every((m) => m < 400));
  const mb = (n: number): string => `${n.toFixed(0).padStart(5)} MB`;
  console.log(`server RSS (MODELS_IDLE_UNLOAD_S=${idle}):`);
  console.log(`  at rest after start      ${mb(rest)}   bar <= 300 MB`);
  console.log(`  under the load mix       ${mb(underLoad)}   peak of the two runs; bar <= 600 MB`);
  console.log(
    `  during one analysis      ${mb(analysis.peakMb)}   peak; ${analysis.seconds.toFixed(0)} s, ${analysis.status}`,
  );
  console.log(`  ${`${Math.min(120, end)} s after it`.padEnd(24)} ${mb(at(120))}`);
  console.log(
    `  ${`${end} s after it`.padEnd(24)} ${mb(at(end))}   bar < 400 MB within 300 s` +
      (under400 >= 0 ? `; under 400 MB from ${under400 + 1} s` : ''),
  );
  const every30 = after.filter((_, i) => (i + 1) % 30 === 0).map((n) => n.toFixed(0));
  console.log(`  after it, every 30 s:    ${every30.join(' ')} MB`);
  return rest <= 300 && underLoad <= 600 && under400 >= 0 && under400 < 300;
}
