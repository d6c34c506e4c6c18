// How a handler tells the worker what kind of failure it met.

/** A failure that retrying cannot fix (e.g. the upload is not a video). `reason` is plain words. */
export class PermanentJobError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'PermanentJobError';
  }
}

/** Why a running handler's signal was aborted. */
export class JobAbort extends Error {
  constructor(readonly why: 'cancelled' | 'lost' | 'stopping') {
    super(`job ${why}`);
    this.name = 'JobAbort';
  }
}

/** Throws the signal's reason when the job was cancelled or the worker is stopping. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new JobAbort('lost');
}

/** A failure in words, as a job records it. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
