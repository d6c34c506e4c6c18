// The multipart transfer step: up to `partsInFlight` parts on the wire at once, so the gap
// between one part's answer and the next part's first byte never idles the connection. Each part
// is recorded in IndexedDB the moment the server confirms it, so a runner killed mid-transfer
// re-sends only the parts that were in flight (and, after listing parts, not even those the
// server already has): an interruption costs at most one part per part in flight.
import { SIGN_PARTS_BATCH } from '../config/upload-queue.ts';
import { UploadError } from './api-errors.ts';
import type { MultipartState, UploadJob } from './job-types.ts';
import { listParts, putPart, signParts } from './protocol-client.ts';
import { commit, type StepContext } from './step-context.ts';

type Part = MultipartState['parts'][number];

export function partCount(job: Pick<UploadJob, 'file'>, partSize: number): number {
  return Math.max(1, Math.ceil(job.file.size / partSize));
}

export const sumSizes = (parts: Part[]): number => parts.reduce((n, p) => n + p.size, 0);

function recorded(job: UploadJob): number {
  return job.multipart?.parts.length ?? 0;
}

/** Adds one confirmed part to the stored job (merged: other parts may land meanwhile). */
async function recordPart(
  ctx: StepContext,
  jobId: string,
  uploadId: string,
  part: Part,
): Promise<UploadJob> {
  const saved = await ctx.store.update(jobId, (current) => {
    const multipart = current.multipart;
    if (!multipart || multipart.uploadId !== uploadId) return current;
    const parts = [...multipart.parts.filter((p) => p.partNumber !== part.partNumber), part].sort(
      (a, b) => a.partNumber - b.partNumber,
    );
    return {
      ...current,
      multipart: { ...multipart, parts },
      bytesDone: sumSizes(parts),
      // A confirmed part is progress: the backoff starts over (issue 3), also when a later part
      // of this same transition fails.
      attempts: 0,
      lastError: undefined,
      updatedAt: ctx.protocol.now(),
    };
  });
  if (!saved) throw new UploadError('fatal', 'The upload was removed.');
  return saved;
}

/** Signed part URLs for one job; concurrent askers share one sign-parts call. */
function partSigner(ctx: StepContext, job: UploadJob, videoId: string, uploadId: string) {
  let signing: Promise<void> | undefined;
  const urls = (): Map<number, string> => {
    let map = ctx.signedUrls.get(job.id);
    if (!map) ctx.signedUrls.set(job.id, (map = new Map()));
    return map;
  };
  return {
    /** The URL of part n (signing it with the next ones of `upcoming` when needed). */
    async url(n: number, upcoming: number[]): Promise<string> {
      for (let attempt = 0; ; attempt++) {
        const url = urls().get(n);
        if (url) {
          urls().delete(n);
          return url;
        }
        if (signing) {
          await signing;
          continue;
        }
        if (attempt > 1) throw new UploadError('retry', `The server did not sign part ${n}.`);
        const batch = [n, ...upcoming.filter((m) => !urls().has(m))].slice(0, SIGN_PARTS_BATCH);
        signing = signParts(ctx.protocol, videoId, uploadId, batch)
          .then((fresh) => fresh.forEach((u, m) => urls().set(m, u)))
          .finally(() => (signing = undefined));
        await signing;
      }
    },
    /** Signatures expired: forget them all and sign again. */
    forget(): void {
      ctx.signedUrls.delete(job.id);
    },
  };
}

/** Sends the missing parts, a few at a time; answers the job as stored after the last one. */
export async function transferParts(
  ctx: StepContext,
  job: UploadJob,
  videoId: string,
  needFile: () => Promise<Blob>,
): Promise<UploadJob> {
  let multipart = job.multipart;
  if (!multipart) throw new UploadError('fatal', 'The multipart upload record is missing.');
  if (!ctx.reconciled.has(job.id)) {
    // After a restart the server knows best which parts arrived (a part may have landed after
    // the last write); this keeps the re-sent data to the parts that were in flight.
    const parts = await listParts(ctx.protocol, videoId, multipart.uploadId);
    multipart = { ...multipart, parts: parts.sort((a, b) => a.partNumber - b.partNumber) };
    job = await commit(ctx, job, { multipart, bytesDone: sumSizes(multipart.parts) });
    ctx.reconciled.add(job.id);
  }
  const { uploadId, partSize } = multipart;
  const count = partCount(job, partSize);
  const done = new Set(multipart.parts.map((part) => part.partNumber));
  const queue = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !done.has(n));
  if (queue.length === 0) return commit(ctx, job, { phase: 'completing' });

  const file = await needFile();
  const signer = partSigner(ctx, job, videoId, uploadId);
  let latest = job;
  const inFlight = new Map<number, number>();
  const report = (): void => {
    let bytes = 0;
    for (const loaded of inFlight.values()) bytes += loaded;
    ctx.onInFlight(latest, bytes);
  };
  let failure: { error: unknown } | undefined;

  async function send(n: number): Promise<void> {
    const start = (n - 1) * partSize;
    const bytes = file.slice(start, Math.min(file.size, start + partSize));
    inFlight.set(n, 0);
    const onProgress = (loaded: number): void => {
      inFlight.set(n, Math.min(loaded, bytes.size));
      report();
    };
    let etag: string;
    try {
      etag = await putPart(ctx.protocol, await signer.url(n, queue), bytes, onProgress).catch(
        async (error: unknown) => {
          if (!(error instanceof UploadError && error.kind === 'expired-signature')) throw error;
          signer.forget(); // signed URLs expired: sign again once, now
          return putPart(ctx.protocol, await signer.url(n, queue), bytes, onProgress);
        },
      );
    } catch (error) {
      inFlight.delete(n);
      throw error;
    }
    const saved = await recordPart(ctx, job.id, uploadId, {
      partNumber: n,
      etag,
      size: bytes.size,
    });
    inFlight.delete(n);
    if (recorded(saved) >= recorded(latest)) latest = saved;
    report();
  }

  // Each lane takes the next missing part until none is left, one fails, or the runner says stop.
  async function lane(): Promise<void> {
    while (!failure && queue.length > 0 && ctx.mayStartPart()) {
      const n = queue.shift()!;
      try {
        await send(n);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(ctx.partsInFlight, queue.length) }, lane));
  if (failure) throw failure.error;
  return recorded(latest) >= count ? commit(ctx, latest, { phase: 'completing' }) : latest;
}
