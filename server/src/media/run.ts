// The one module that starts processes. Every ffmpeg/ffprobe run goes through runProcess: a
// timeout, a kill when the job is aborted, stderr kept as a bounded tail for the error message,
// and stdout either collected up to a limit or streamed to a callback (never unbounded). The
// process is started by the media thread (media-thread.ts): a fork from the server's thread cost
// it 17-35 ms of CPU each.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { inMediaThread, relayProcess } from './media-thread.ts';
import type { RunOptions, RunResult } from './run-options.ts';

export class ProcessError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

const DEFAULT_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/**
 * Media tools run at a lower CPU priority than the server: an analysis in the web process
 * (WORKER=inline) took both cores from the requests it ran beside (issue 14's load bench).
 */
export const MEDIA_NICENESS = 10;

export async function runProcess(
  bin: string,
  args: string[],
  opts: RunOptions = {},
): Promise<RunResult> {
  if (inMediaThread()) return spawnProcess(bin, args, opts);
  try {
    return await relayProcess(bin, args, opts);
  } catch (err) {
    // The thread's ProcessError arrives as a plain error with its fields.
    if (err instanceof Error && err.name === 'ProcessError') {
      const { exitCode, stderr } = err as Partial<ProcessError>;
      throw new ProcessError(err.message, exitCode ?? null, stderr ?? '');
    }
    throw err;
  }
}

/** Starts the process from the calling thread (the media thread's side of runProcess). */
export function spawnProcess(
  bin: string,
  args: string[],
  opts: RunOptions = {},
): Promise<RunResult> {
  const maxStdout = opts.maxStdoutBytes ?? 16 * 1024 * 1024;
  const tailBytes = opts.stderrTailBytes ?? 16 * 1024;
  return new Promise<RunResult>((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(opts.signal.reason);
      return;
    }
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, Math.max(os.getPriority(), MEDIA_NICENESS));
      } catch {
        // Ended already, or not allowed here: it runs at the server's priority.
      }
    }
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failure: unknown;
    let settled = false;

    /** The tool has ended (its exit code), while its last output may still be read. */
    let ended = false;
    const kill = (why: unknown): void => {
      if (failure === undefined) failure = why;
      child.kill('SIGKILL');
      if (ended) finish(undefined, null);
    };
    const onAbort = (): void => kill(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => kill(new ProcessError(`${label(bin)} timed out`, null, stderr)),
      opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );

    // A reader that answers a promise gets the next chunk only after it: the stream is paused
    // meanwhile. Node resumes a paused stdout itself once the tool exits, so what still comes
    // then waits its turn here. The run answers after the reader's work on the last chunk.
    let reading: Promise<void> = Promise.resolve();
    /** Chunks handed over or waiting whose reader's work is not done. */
    let held = 0;
    const { onStdout } = opts;
    const deliver = (chunk: Buffer): Promise<void> | undefined => {
      if (failure !== undefined || !onStdout) return undefined;
      try {
        const pending = onStdout(chunk);
        return pending ? pending.then(() => undefined, kill) : undefined;
      } catch (err) {
        kill(err);
        return undefined;
      }
    };
    const release = (): void => {
      if (--held === 0) child.stdout.resume();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (onStdout) {
        if (held === 0) {
          const pending = deliver(chunk);
          if (!pending) return;
          held++;
          child.stdout.pause();
          reading = pending.then(release);
        } else {
          held++;
          reading = reading.then(() => deliver(chunk)).then(release);
        }
        return;
      }
      outBytes += chunk.length;
      if (outBytes > maxStdout) kill(new ProcessError(`${label(bin)} wrote too much`, null, ''));
      else out.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-tailBytes);
    });

    const finish = (err: unknown, code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failure !== undefined) reject(failure);
      else if (err) reject(err);
      else if (code !== 0) {
        reject(
          new ProcessError(`${label(bin)} exited with ${code}: ${lastLines(stderr)}`, code, stderr),
        );
      } else resolve({ stdout: Buffer.concat(out), stderr });
    };
    const stdoutRead = new Promise<void>((done) => child.stdout.once('end', done));
    const closed = (code: number | null): void => {
      ended = true;
      if (code !== 0 || failure !== undefined) finish(undefined, code);
      else void stdoutRead.then(() => reading).then(() => finish(undefined, code));
    };
    child.on('error', (err) => finish(err, null));
    child.on('close', closed);
  });
}

function label(bin: string): string {
  return bin.split(/[\\/]/).pop() ?? bin;
}

function lastLines(text: string, n = 3): string {
  return text.trim().split('\n').slice(-n).join(' | ');
}
