// One transition of one job per call: do exactly one side effect, then record its result (a
// multipart transfer sends a few parts at once and records each as it lands: part-transfer.ts).
// Because the record is written only after the server confirmed, a runner killed at any point
// repeats at most the calls in flight, and every call is safe to repeat: create carries the job id
// as Idempotency-Key, people images replace, parts are listed before resuming, status is
// idempotent.
import { UploadError } from './api-errors.ts';
import { forgetSessionFile, resolveFile } from './file-source.ts';
import type { MultipartState, UploadJob } from './job-types.ts';
import { transferParts } from './part-transfer.ts';
import {
  abortMultipart,
  completeMultipart,
  createVideo,
  deleteVideo,
  postSignedForm,
  sendInProgressStatus,
  startMultipart,
  uploadPeopleImages,
} from './protocol-client.ts';
import { commit, type StepContext } from './step-context.ts';

export type { StepContext } from './step-context.ts';

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
      return job.transferMode === 'multipart'
        ? transferParts(ctx, job, videoIdOf(job), () => needFile(ctx, job))
        : transferForm(ctx, job);
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
