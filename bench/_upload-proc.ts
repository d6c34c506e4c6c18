// /proc readings for bench/upload.ts: the processes this bench started (the server child, curl,
// Chromium's browser, renderer, GPU and network-service processes), their memory and CPU time.
import fs from 'node:fs';

interface ProcInfo {
  ppid: number;
  /** CPU seconds (user + system) so far. */
  cpu: number;
  /** CPU seconds of its children that ended and were waited for (curl, for this bench). */
  childrenCpu: number;
  /** Chromium's --type (browser for the main process), or the command name. */
  kind: string;
}

const TICK = 100; // USER_HZ on Linux

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    let kind = name;
    if (name.startsWith('chrom')) {
      const type = /--type=([\w-]+)/.exec(cmd)?.[1];
      const sub = /--utility-sub-type=([\w.]+)/.exec(cmd)?.[1];
      kind = `chromium ${sub?.includes('Network') ? 'network service' : (type ?? 'browser')}`;
    }
    return {
      ppid: Number(f[1]),
      cpu: (Number(f[11]) + Number(f[12])) / TICK,
      childrenCpu: (Number(f[13]) + Number(f[14])) / TICK,
      kind,
    };
  } catch {
    return undefined; // it ended while we looked
  }
}

/** Every live process below pid, with its facts. */
export function descendants(pid: number): Map<number, ProcInfo> {
  const all = new Map<number, ProcInfo>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readProc(Number(entry));
    if (info) all.set(Number(entry), info);
  }
  const found = new Map<number, ProcInfo>();
  const walk = (parent: number): void => {
    for (const [child, info] of all)
      if (info.ppid === parent && !found.has(child)) {
        found.set(child, info);
        walk(child);
      }
  };
  walk(pid);
  return found;
}

/** Proportional set size (shared pages split between their users) of a process, in KB. */
function pssKb(pid: number): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Memory now: Chromium's total PSS and the server's RSS, in MB. */
function memoryMb(serverPid: number): { chromium: number; server: number } {
  let chromiumKb = 0;
  let serverKb = 0;
  for (const [pid, info] of descendants(process.pid)) {
    if (info.kind.startsWith('chromium')) chromiumKb += pssKb(pid);
    if (pid === serverPid) {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      serverKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    }
  }
  return { chromium: chromiumKb / 1024, server: serverKb / 1024 };
}

/** CPU seconds by kind of process (server, curl, each kind of Chromium process). */
export type CpuUse = Record<string, number>;

export interface Observed<T> {
  result: T;
  cpu: CpuUse;
  /** Peak over the start, sampled every 100 ms, in MB. */
  chromiumGrowthMb: number;
  serverGrowthMb: number;
  serverBaseMb: number;
}

function cpuSnapshot(): { byPid: Map<number, ProcInfo>; waited: number } {
  return { byPid: descendants(process.pid), waited: readProc(process.pid)?.childrenCpu ?? 0 };
}

/** Runs work while watching the CPU time and memory of the server and Chromium. */
export async function observe<T>(serverPid: number, work: () => Promise<T>): Promise<Observed<T>> {
  const base = memoryMb(serverPid);
  const peak = { ...base };
  const sample = (): void => {
    const now = memoryMb(serverPid);
    peak.chromium = Math.max(peak.chromium, now.chromium);
    peak.server = Math.max(peak.server, now.server);
  };
  const timer = setInterval(sample, 100);
  const before = cpuSnapshot();
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  const after = cpuSnapshot();
  sample();
  const cpu: CpuUse = {};
  const add = (kind: string, s: number): void => {
    if (s > 0) cpu[kind] = (cpu[kind] ?? 0) + s;
  };
  for (const [pid, info] of after.byPid) {
    add(pid === serverPid ? 'server' : info.kind, info.cpu - (before.byPid.get(pid)?.cpu ?? 0));
  }
  // curl ran and ended in between: its time is in this process's waited-for children.
  add('curl', after.waited - before.waited);
  return {
    result,
    cpu,
    chromiumGrowthMb: peak.chromium - base.chromium,
    serverGrowthMb: peak.server - base.server,
    serverBaseMb: base.server,
  };
}
