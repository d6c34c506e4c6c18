// What one transition of a job works with, and how it records its result.
import { UploadError } from './api-errors.ts';
import type { JobStore } from './job-store.ts';
import type { UploadJob } from './job-types.ts';
import type { ProtocolDeps } from './protocol-client.ts';

export interface StepContext {
  store: JobStore;
  protocol: ProtocolDeps;
  /** Bytes of the current requests that have left (for the progress bar). */
  onInFlight: (job: UploadJob, inFlightBytes: number) => void;
  /** Per-runner memory: signed part URLs (they expire, so not persisted) and reconciled jobs. */
  signedUrls: Map<string, Map<number, string>>;
  reconciled: Set<string>;
  /** Files up to this size use the single signed form. */
  singleFormMaxBytes: number;
  /** Parts of a multipart transfer sent at the same time. */
  partsInFlight: number;
  /** Asked before each part after the first: false when the runner must stop (deadline, budget). */
  mayStartPart: () => boolean;
}

/** Writes the result of a confirmed side effect over the stored job; answers what was stored. */
export async function commit(
  ctx: StepContext,
  job: UploadJob,
  changes: Partial<UploadJob>,
): Promise<UploadJob> {
  const saved = await ctx.store.update(job.id, (current) => ({
    ...current,
    ...changes,
    updatedAt: ctx.protocol.now(),
  }));
  if (!saved) throw new UploadError('fatal', 'The upload was removed.');
  return saved;
}
