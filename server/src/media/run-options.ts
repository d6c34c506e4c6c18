// What a caller of runProcess passes and gets back: shared by run.ts and the media thread, which
// starts the processes for it (kept apart so neither imports the other for a type).
export interface RunOptions {
  signal?: AbortSignal;
  /** Kill the process after this long (ms). */
  timeoutMs?: number;
  /**
   * Receives stdout as it comes. When it answers a promise, stdout is not read until it settles
   * (the process waits on its full pipe); a rejection ends the run with that error.
   */
  onStdout?: (chunk: Buffer) => void | Promise<void>;
  /** Collect stdout (when no onStdout) up to this many bytes; more fails the run. */
  maxStdoutBytes?: number;
  /** Bytes of stderr kept (the tail) for error messages. */
  stderrTailBytes?: number;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}
