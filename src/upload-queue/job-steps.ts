// One transition of one job per call: do exactly one side effect, then record its result (a
// multipart transfer sends a few parts at once and records each as it lands: part-transfer.ts).
// Because the record is written only after the server confirmed, a runner killed at any point
// repeats at most the calls in flight, and every call is safe to repeat: create carries the job id
// as Idempotency-Key, people images replace, parts are listed before resuming, status is
// idempotent.
import { isUploadGone, partsChanged, UploadError } from './api-errors.ts';
import { batchBlobsKey } from './batch-types.ts';
import { forgetSessionFile, resolveFile } from './file-source.ts';
import type { UploadJob } from './job-types.ts';
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
        // A batch's jobs share its people images (one copy: batch-client.ts).
        const blobs = await ctx.store.getBlobs(job.batchId ? batchBlobsKey(job.batchId) : job.id);
        await uploadPeopleImages(p, videoIdOf(job), job.peopleNames, blobs?.peopleImages ?? []);
      }
      return commit(ctx, job, { phase: 'people-uploaded' });
    }
    case 'people-uploaded': {
      if (job.file.size <= ctx.singleFormMaxBytes)
        return commit(ctx, job, { phase: 'transferring', transferMode: 'form' });
      return beginMultipart(ctx, job, false);
    }
    case 'transferring':
      if (job.transferMode !== 'multipart') return transferForm(ctx, job);
      if (!job.multipart) return beginMultipart(ctx, job, true);
      return transferParts(ctx, job, videoIdOf(job), () => needFile(ctx, job)).catch(
        (error: unknown) => forgetGoneUpload(ctx, job, error),
      );
    case 'completing': {
      const multipart = job.multipart;
      if (multipart && !multipart.completed) {
        try {
          // Parts are kept in part-number order (part-transfer.ts), as complete wants them.
          await completeMultipart(p, videoIdOf(job), multipart.uploadId, multipart.parts);
        } catch (error) {
          if (partsChanged(error) && !multipart.relisted) {
            // A late copy of a part (a stopped runner's request, delayed on the way) replaced the
            // one recorded: the server holds the same bytes under another ETag. Its own list is
            // right; the next transition reads it and completes again. Once only: no loop.
            ctx.reconciled.delete(job.id);
            return commit(ctx, job, {
              phase: 'transferring',
              multipart: { ...multipart, relisted: true },
            });
          }
          // A repeated complete answers 200, so a gone upload here really is gone.
          return forgetGoneUpload(ctx, job, error);
        }
        return commit(ctx, job, { multipart: { ...multipart, completed: true } });
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

/** Starts the video's multipart upload (the server aborts any older one of the video). */
async function beginMultipart(
  ctx: StepContext,
  job: UploadJob,
  renewal: boolean,
): Promise<UploadJob> {
  const started = await startMultipart(ctx.protocol, videoIdOf(job));
  ctx.reconciled.add(job.id); // a fresh upload has no parts to reconcile
  return commit(ctx, job, {
    phase: 'transferring',
    transferMode: 'multipart',
    multipart: { ...started, parts: [], completed: false, renewal },
    bytesDone: 0,
  });
}

/**
 * The server dropped the multipart upload (it expires a day after it starts, which a long offline
 * spell outlives, or it was aborted): forget it and its parts, and the next transition starts a new
 * one for the same video. A renewal gone before its first part is not renewed again (no loop
 * against a server that drops every upload): the job fails, and Retry starts afresh.
 */
async function forgetGoneUpload(
  ctx: StepContext,
  job: UploadJob,
  error: unknown,
): Promise<UploadJob> {
  const latest = (await ctx.store.get(job.id)) ?? job;
  const dead = latest.multipart;
  if (!isUploadGone(error) || !dead) throw error;
  ctx.signedUrls.delete(job.id);
  const saved = await commit(ctx, latest, {
    phase: 'transferring',
    multipart: undefined,
    bytesDone: 0,
  });
  if (dead.renewal && dead.parts.length === 0) {
    throw new UploadError('fatal', error.message, error.status);
  }
  return saved;
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
