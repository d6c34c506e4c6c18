// The page's handle on the duration probe worker. One worker, started on first use and
// terminated after a short idle time or when a caller aborts, so it holds no memory between picks.
import { wrap, type Remote } from 'comlink';
import type { ProbeContract } from './probe-contract.ts';
import { toLocalIsoDateTime } from './local-date-time.ts';

export interface VideoProbe {
  /** Whole seconds are not required: the create call takes a number of seconds. */
  durationSeconds: number;
  /** Local ISO date-time with milliseconds: the file's creation metadata, else its last-modified time. */
  videoDate: string;
}

const IDLE_TERMINATE_MS = 30_000;

let worker: Worker | undefined;
let remote: Remote<ProbeContract> | undefined;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
let running = 0;

function start(): Remote<ProbeContract> {
  if (!remote) {
    worker = new Worker(new URL('../workers/probe.worker.ts', import.meta.url), { type: 'module' });
    remote = wrap<ProbeContract>(worker);
  }
  return remote;
}

/** Stops the worker now; a later probe starts a fresh one. */
export function terminateProbeWorker(): void {
  clearTimeout(idleTimer);
  worker?.terminate();
  worker = undefined;
  remote = undefined;
}

function scheduleIdleStop(): void {
  clearTimeout(idleTimer);
  if (running === 0) idleTimer = setTimeout(terminateProbeWorker, IDLE_TERMINATE_MS);
}

/**
 * Reads the duration and date of a chosen video without loading it into memory.
 * Aborting terminates the worker (a probe cannot be interrupted more gently) and rejects.
 */
export async function probeVideo(file: File, signal?: AbortSignal): Promise<VideoProbe> {
  signal?.throwIfAborted();
  const api = start();
  clearTimeout(idleTimer);
  running += 1;
  const onAbort = (): void => terminateProbeWorker();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const aborted = new Promise<never>((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const result = await Promise.race([api.probe(file), aborted]);
    const created = result.createdAtMs ?? file.lastModified;
    return {
      durationSeconds: result.durationSeconds,
      videoDate: toLocalIsoDateTime(new Date(created)),
    };
  } finally {
    running -= 1;
    signal?.removeEventListener('abort', onAbort);
    scheduleIdleStop();
  }
}

/** The whole file's SHA-256, hashed in the worker so the page stays responsive. */
export async function hashVideo(file: Blob, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const api = start();
  clearTimeout(idleTimer);
  running += 1;
  try {
    return await api.sha256(file);
  } finally {
    running -= 1;
    scheduleIdleStop();
  }
}
