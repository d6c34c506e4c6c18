// One transition of one job per call: do exactly one side effect, then record its result.
// Because the record is written only after the server confirmed, a runner killed at any point
// repeats at most the last call, and every call is safe to repeat: create carries the job id as
// Idempotency-Key, people images replace, parts are listed before resuming, status is idempotent.
import { SIGN_PARTS_BATCH } from '../config/upload-queue.ts';
import { UploadError } from './api-errors.ts';
import { forgetSessionFile, resolveFile } from './file-source.ts';
import type { JobStore } from './job-store.ts';
import type { MultipartState, UploadJob } from './job-types.ts';
import {
  abortMultipart,
  completeMultipart,
  createVideo,
  deleteVideo,
  listParts,
  postSignedForm,
  putPart,
  sendInProgressStatus,
  signParts,
  startMultipart,
  uploadPeopleImages,
  type ProtocolDeps,
} from './protocol-client.ts';

export interface StepContext {
  store: JobStore;
  protocol: ProtocolDeps;
  /** Bytes of the current request that have left (for the progress bar). */
  onInFlight: (job: UploadJob, inFlightBytes: number) => void;
  /** Per-runner memory: signed part URLs (they expire, so not persisted) and reconciled jobs. */
  signedUrls: Map<string, Map<number, string>>;
  reconciled: Set<string>;
  /** Files up to this size use the single signed form. */
  singleFormMaxBytes: number;
}

type Changes = Partial<UploadJob>;

async function commit(ctx: StepContext, job: UploadJob, changes: Changes): Promise<UploadJob> {
  const saved = await ctx.store.update(job.id, (current) => ({
    ...current,
    ...changes,
    updatedAt: ctx.protocol.now(),
  }));
  if (!saved) throw new UploadError('fatal', 'The upload was removed.');
  return saved;
}

export function partCount(job: Pick<UploadJob, 'file'>, partSize: number): number {
  return Math.max(1, Math.ceil(job.file.size / partSize));
}

const sumSizes = (parts: MultipartState['parts']): number => parts.reduce((n, p) => n + p.size, 0);

async function needFile(ctx: StepContext, job: UploadJob): Promise<Blob> {
  const file = await resolveFile(job.id, await ctx.store.getBlobs(job.id));
  if (!file) throw new UploadError('needs-file', 'The video file must be chosen again.');
  return file;
}

/** Advances the job by one transition; throws UploadError when the call failed. */
export async function step(ctx: StepContext, job: UploadJob): Promise<UploadJob> {
  const p = ctx.protocol;
  switch (job.phase) {
    case 'queued': {
      const created = await createVideo(p, job.id, job.payload);
      return commit(ctx, job, { phase: 'created', videoId: created.id, form: created.form });
    }
    case 'created': {
      if (job.peopleNames.length > 0) {
        const blobs = await ctx.store.getBlobs(job.id);
        await uploadPeopleImages(p, videoIdOf(job), job.peopleNames, blobs?.peopleImages ?? []);
      }
      return commit(ctx, job, { phase: 'people-uploaded' });
    }
    case 'people-uploaded': {
      if (job.file.size <= ctx.singleFormMaxBytes)
        return commit(ctx, job, { phase: 'transferring', transferMode: 'form' });
      const started = await startMultipart(p, videoIdOf(job));
      ctx.reconciled.add(job.id); // a fresh upload has no parts to reconcile
      return commit(ctx, job, {
        phase: 'transferring',
        transferMode: 'multipart',
        multipart: { ...started, parts: [], completed: false },
        bytesDone: 0,
      });
    }
    case 'transferring':
      return job.transferMode === 'multipart' ? transferNextPart(ctx, job) : transferForm(ctx, job);
    case 'completing': {
      if (job.multipart && !job.multipart.completed) {
        await completeOnce(ctx, job, job.multipart);
        return commit(ctx, job, { multipart: { ...job.multipart, completed: true } });
      }
      await sendInProgressStatus(p, videoIdOf(job));
      return commit(ctx, job, { phase: 'status-sent' });
    }
    case 'status-sent': {
      await ctx.store.deleteBlobs(job.id);
      forgetSessionFile(job.id);
      return commit(ctx, job, { phase: 'done' });
    }
    case 'done':
      return job;
  }
}

function videoIdOf(job: UploadJob): string {
  if (!job.videoId) throw new UploadError('fatal', 'The upload lost its video id.');
  return job.videoId;
}

async function transferForm(ctx: StepContext, job: UploadJob): Promise<UploadJob> {
  const file = await needFile(ctx, job);
  const report = (loaded: number): void => ctx.onInFlight(job, Math.min(loaded, job.file.size));
  let form = job.form;
  try {
    if (!form) throw new UploadError('expired-signature', 'No upload form yet.');
    await postSignedForm(ctx.protocol, form, file, job.file.name, report);
  } catch (error) {
    if (!(error instanceof UploadError && error.kind === 'expired-signature')) throw error;
    // The form expired: the same Idempotency-Key answers the same video with a fresh form.
    const created = await createVideo(ctx.protocol, job.id, job.payload);
    if (created.id !== job.videoId)
      throw new UploadError('fatal', 'The server answered a different video.');
    form = created.form;
    job = await commit(ctx, job, { form });
    await postSignedForm(ctx.protocol, form, file, job.file.name, report);
  }
  return commit(ctx, job, { phase: 'completing', bytesDone: job.file.size });
}

async function transferNextPart(ctx: StepContext, job: UploadJob): Promise<UploadJob> {
  let multipart = job.multipart;
  if (!multipart) throw new UploadError('fatal', 'The multipart upload record is missing.');
  const videoId = videoIdOf(job);
  if (!ctx.reconciled.has(job.id)) {
    // After a restart the server knows best which parts arrived (a part may have landed after
    // the last write); this keeps the re-sent data to at most the part in flight.
    const parts = await listParts(ctx.protocol, videoId, multipart.uploadId);
    multipart = { ...multipart, parts: parts.sort((a, b) => a.partNumber - b.partNumber) };
    job = await commit(ctx, job, { multipart, bytesDone: sumSizes(multipart.parts) });
    ctx.reconciled.add(job.id);
  }
  const count = partCount(job, multipart.partSize);
  const done = new Set(multipart.parts.map((part) => part.partNumber));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !done.has(n));
  const partNumber = missing[0];
  if (partNumber === undefined) return commit(ctx, job, { phase: 'completing' });

  const file = await needFile(ctx, job);
  const start = (partNumber - 1) * multipart.partSize;
  const bytes = file.slice(start, Math.min(file.size, start + multipart.partSize));
  const report = (loaded: number): void => ctx.onInFlight(job, Math.min(loaded, bytes.size));
  let etag: string;
  try {
    etag = await putPart(ctx.protocol, await partUrl(ctx, job, multipart, missing), bytes, report);
  } catch (error) {
    if (!(error instanceof UploadError && error.kind === 'expired-signature')) throw error;
    ctx.signedUrls.delete(job.id); // signed URLs expired: sign again once, now
    etag = await putPart(ctx.protocol, await partUrl(ctx, job, multipart, missing), bytes, report);
  }
  const parts = [...multipart.parts, { partNumber, etag, size: bytes.size }];
  const nextMultipart = { ...multipart, parts };
  const finished = parts.length >= count;
  return commit(ctx, job, {
    multipart: nextMultipart,
    bytesDone: sumSizes(parts),
    ...(finished ? { phase: 'completing' as const } : {}),
  });
}

async function partUrl(
  ctx: StepContext,
  job: UploadJob,
  multipart: MultipartState,
  missing: number[],
): Promise<string> {
  const partNumber = missing[0]!;
  let urls = ctx.signedUrls.get(job.id);
  if (!urls?.has(partNumber)) {
    urls = await signParts(
      ctx.protocol,
      videoIdOf(job),
      multipart.uploadId,
      missing.slice(0, SIGN_PARTS_BATCH),
    );
    ctx.signedUrls.set(job.id, urls);
  }
  const url = urls.get(partNumber);
  if (!url) throw new UploadError('retry', `The server did not sign part ${partNumber}.`);
  urls.delete(partNumber);
  return url;
}

async function completeOnce(
  ctx: StepContext,
  job: UploadJob,
  multipart: MultipartState,
): Promise<void> {
  const parts = [...multipart.parts].sort((a, b) => a.partNumber - b.partNumber);
  try {
    await completeMultipart(ctx.protocol, videoIdOf(job), multipart.uploadId, parts);
  } catch (error) {
    // A complete whose answer was lost leaves no upload behind: 404 then means "already done";
    // update-status will refuse if the file is not really there.
    if (error instanceof UploadError && error.status === 404) return;
    throw error;
  }
}

/** The server side of a cancel: abort the multipart upload and remove the unfinished video. */
export async function cancelOnServer(ctx: StepContext, job: UploadJob): Promise<UploadJob> {
  const ignoreMissing = (error: unknown): void => {
    if (!(error instanceof UploadError && error.status === 404)) throw error;
  };
  if (job.videoId && job.multipart && !job.multipart.completed) {
    await abortMultipart(ctx.protocol, job.videoId, job.multipart.uploadId).catch(ignoreMissing);
  }
  const statusSent = job.phase === 'status-sent' || job.phase === 'done';
  if (job.videoId && !statusSent) await deleteVideo(ctx.protocol, job.videoId).catch(ignoreMissing);
  await ctx.store.deleteBlobs(job.id);
  forgetSessionFile(job.id);
  return commit(ctx, job, { cancelPending: false });
}
