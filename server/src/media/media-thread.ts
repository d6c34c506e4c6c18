// The media thread: one worker thread of the process that starts every ffmpeg/ffprobe run
// (run.ts) and does the analysis pass's per-frame work (analysis-pass.ts), so that the server's own
// thread only posts the task and receives the results.
//
// Why a thread: libuv starts a process by fork(), which copies the page tables of the whole
// process in the thread that calls it. The server holds 600-900 MB with its models, so each spawn
// cost its main thread 17-35 ms of CPU (issue 28: the slowest /api/health answer while a video is
// analysed must stay under 100 ms with WORKER=inline). In this thread the fork costs this thread,
// and the main thread's event loop keeps turning. The analysis pass streams 10 tiny frames a second
// of video to the scene detector (20-26 ms of work a chunk of ffmpeg's output): here, the frames
// never reach the main thread, only the cut does.
//
// The thread runs below the server's CPU priority (perception/thread-priority.ts), like the tools
// it starts. It ends after MODELS_IDLE_UNLOAD_S without work (lib/idle-thread.ts). Each call gets
// a MessagePort of its own for what goes on while it runs: stdout relayed in order (each chunk
// acknowledged, so a caller that answers a promise still holds the tool back), progress, and the
// caller's abort.
import fs from 'node:fs';
import { MessageChannel, isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { IdleThread } from '../lib/idle-thread.ts';
import { tsWorker } from '../lib/ts-worker.ts';
import type { RunOptions, RunResult } from './run-options.ts';

/** workerData of the media thread: the code that runs in it spawns directly. */
interface MediaThreadData {
  mediaThread: true;
}

/** Whether the calling code runs in the media thread itself. */
export function inMediaThread(): boolean {
  return !isMainThread && (workerData as MediaThreadData | null)?.mediaThread === true;
}

const thread = new IdleThread('media', () =>
  tsWorker(new URL('./media-thread-worker.ts', import.meta.url), {
    workerData: { mediaThread: true } satisfies MediaThreadData,
  }),
);

/** What the caller's side of a call's port sends to the thread. */
export type ToThread = { abort: true } | { ack: true };

/**
 * One task for the media thread with a port of its own: `onMessage` receives what the thread
 * posts while it runs; the caller's abort is passed on, and the call then fails with the
 * signal's reason once the thread has ended its work (the tool is dead, its files closed).
 */
export async function mediaThreadCall<R>(
  task: object,
  o: { signal?: AbortSignal; onMessage?: (message: unknown, port: MessagePort) => void },
): Promise<R> {
  o.signal?.throwIfAborted();
  const { port1, port2 } = new MessageChannel();
  const abort = (): void => port1.postMessage({ abort: true } satisfies ToThread);
  o.signal?.addEventListener('abort', abort, { once: true });
  if (o.onMessage) port1.on('message', (m: unknown) => o.onMessage!(m, port1));
  try {
    const result = await thread.call<R>({ ...task, port: port2 }, [port2]);
    o.signal?.throwIfAborted();
    return result;
  } catch (err) {
    o.signal?.throwIfAborted();
    throw err;
  } finally {
    o.signal?.removeEventListener('abort', abort);
    port1.close();
  }
}

/** A tool run in the media thread (run.ts's runProcess from any other thread). */
export interface RunTask {
  run: { bin: string; args: string[]; relay: boolean } & Omit<RunOptions, 'signal' | 'onStdout'>;
}

/** What the thread posts on a run's port: one chunk of stdout, to acknowledge. */
export interface StdoutChunk {
  chunk: Uint8Array;
}

/**
 * Runs a tool in the media thread with runProcess's contract; errors come back as the thread
 * raised them (serialised: run.ts restores a ProcessError).
 */
export async function relayProcess(
  bin: string,
  args: string[],
  opts: RunOptions,
): Promise<RunResult> {
  const { signal, onStdout, ...limits } = opts;
  // The caller's own failure (its onStdout threw or rejected): the tool is stopped, and the call
  // fails with it.
  let failure: { err: unknown } | undefined;
  const local = new AbortController();
  const stop = (err: unknown): void => {
    failure ??= { err };
    local.abort(err);
  };
  const onAbort = (): void => local.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const ack = (port: MessagePort): void => port.postMessage({ ack: true } satisfies ToThread);
  const task: RunTask = { run: { bin, args, relay: onStdout !== undefined, ...limits } };
  try {
    const result = await mediaThreadCall<{ stdout: Uint8Array; stderr: string }>(task, {
      signal: local.signal,
      onMessage(message, port) {
        if (failure || !onStdout) return;
        const { chunk } = message as StdoutChunk;
        try {
          const pending = onStdout(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (pending) pending.then(() => ack(port), stop);
          else ack(port);
        } catch (err) {
          stop(err);
        }
      },
    });
    return {
      stdout: Buffer.from(result.stdout.buffer, result.stdout.byteOffset, result.stdout.byteLength),
      stderr: result.stderr,
    };
  } catch (err) {
    if (failure) throw failure.err;
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** A folder to remove, with all it holds (removeTree). */
export interface RemoveTask {
  remove: string;
}

/**
 * Removes a folder and all it holds from the media thread: a job's folder holds hundreds of frame
 * images, and fs.rm's callbacks (a lstat and an unlink each, all run in one turn of the loop as
 * they complete) held the server's thread for a block of up to 330 ms under load.
 */
export async function removeTree(dir: string): Promise<void> {
  if (inMediaThread()) return fs.promises.rm(dir, { recursive: true, force: true });
  const task: RemoveTask = { remove: dir };
  await mediaThreadCall<void>(task, {});
}

/** Ends the media thread (tests, shutdown); the next run starts a new one. */
export function closeMediaThread(): Promise<void> {
  return thread.close();
}

/** Whether the media thread is running. */
export function mediaThreadRunning(): boolean {
  return thread.running();
}
