// Resumable upload of a video's original file: S3's multipart protocol behind our own routes, so
// the client asks us for part URLs and we answer S3's (STORAGE=s3) or this server's (local).
//   POST   /api/videos/:id/multipart                    -> {upload_id, part_size, key, expires_at}
//   POST   /api/videos/:id/multipart/sign-parts         {upload_id, part_numbers} -> {parts:[{part_number, url}]}
//   GET    /api/videos/:id/multipart/list-parts?upload_id (or /parts) -> {parts:[{part_number, etag, size}]}
//   POST   /api/videos/:id/multipart/complete           {upload_id, parts:[{part_number, etag}]} -> {key, size}
//   DELETE /api/videos/:id/multipart?upload_id          -> 204
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import {
  MULTIPART_MAX_PARTS,
  MULTIPART_PART_SIZE,
  MULTIPART_PART_URL_TTL_S,
  MULTIPART_SIGN_BATCH_MAX,
  MULTIPART_UPLOAD_TTL_MS,
  VIDEO_UPLOAD_CONTENT_TYPE,
} from '../../limits.ts';
import { VIDEO_MAX_BYTES } from '../../../../src/config/limits.ts';
import { markFailed } from '../../repositories/videos.ts';
import { clearContentHash } from '../../repositories/content-hash.ts';
import {
  closeMultipart,
  findMultipart,
  insertMultipart,
  openMultipartsOfVideo,
  type MultipartRow,
} from '../../repositories/multipart-uploads.ts';
import { uploadBackend } from '../../storage/create.ts';
import { isUuid, requestOrigin, uploadingVideo, videoIdParams } from './video-access.ts';

/** The specification's file size message, and the reason kept on the failed video. */
export const TOO_LARGE_MESSAGE = 'File size must not exceed 5GB';
export const TOO_LARGE_REASON = 'the uploaded file is larger than 5 GB';

const uploadId = { type: 'string', minLength: 1, maxLength: 64 } as const;
const partNumber = { type: 'integer', minimum: 1, maximum: MULTIPART_MAX_PARTS } as const;

const signSchema = {
  params: videoIdParams,
  body: {
    type: 'object',
    required: ['upload_id', 'part_numbers'],
    properties: {
      upload_id: uploadId,
      part_numbers: {
        type: 'array',
        minItems: 1,
        maxItems: MULTIPART_SIGN_BATCH_MAX,
        uniqueItems: true,
        items: partNumber,
      },
    },
  },
} as const;

const completeSchema = {
  params: videoIdParams,
  body: {
    type: 'object',
    required: ['upload_id', 'parts'],
    properties: {
      upload_id: uploadId,
      parts: {
        type: 'array',
        minItems: 1,
        maxItems: MULTIPART_MAX_PARTS,
        items: {
          type: 'object',
          required: ['part_number', 'etag'],
          properties: { part_number: partNumber, etag: { type: 'string', maxLength: 100 } },
        },
      },
    },
  },
} as const;

const queryUploadSchema = {
  params: videoIdParams,
  querystring: { type: 'object', required: ['upload_id'], properties: { upload_id: uploadId } },
} as const;

type Params = { id: string };

export function registerMultipartRoutes(app: FastifyInstance, ctx: AppContext): void {
  const backend = () => uploadBackend(ctx);

  /** The video's upload; 404 when unknown, 410 once aborted or expired (start a new one). */
  async function findUpload(videoId: string, id: string): Promise<MultipartRow> {
    const upload = isUuid(id) ? await findMultipart(ctx.db, id) : undefined;
    if (!upload || upload.video_id !== videoId) throw new HttpError(404, 'Upload not found');
    if (upload.status === 'aborted' || upload.expires_at.getTime() <= ctx.now()) {
      throw new HttpError(410, 'The upload has expired or was aborted; start a new one.');
    }
    return upload;
  }
  async function openUpload(videoId: string, id: string): Promise<MultipartRow> {
    const upload = await findUpload(videoId, id);
    if (upload.status !== 'open') throw new HttpError(409, 'The upload is already complete.');
    return upload;
  }

  app.post<{ Params: Params }>(
    '/api/videos/:id/multipart',
    { schema: { params: videoIdParams } },
    async (request, reply) => {
      const video = await uploadingVideo(ctx, request, request.params.id);
      // One transfer per video: a new start (say after a lost answer) replaces older ones.
      for (const old of await openMultipartsOfVideo(ctx.db, video.id)) {
        if (await closeMultipart(ctx.db, old.id, 'aborted')) await backend().abort(old);
      }
      const id = crypto.randomUUID();
      const key = video.source_key ?? '';
      const backendUploadId = await backend().createMultipart({
        id,
        key,
        contentType: VIDEO_UPLOAD_CONTENT_TYPE,
      });
      const now = ctx.now();
      const expiresAt = new Date(now + MULTIPART_UPLOAD_TTL_MS);
      await insertMultipart(ctx.db, {
        id,
        video_id: video.id,
        storage_key: key,
        backend: backend().kind,
        backend_upload_id: backendUploadId,
        part_size: MULTIPART_PART_SIZE,
        created_at: new Date(now),
        expires_at: expiresAt,
      });
      return reply.status(201).send({
        upload_id: id,
        part_size: MULTIPART_PART_SIZE,
        key,
        expires_at: expiresAt.toISOString(),
      });
    },
  );

  app.post<{ Params: Params; Body: { upload_id: string; part_numbers: number[] } }>(
    '/api/videos/:id/multipart/sign-parts',
    { schema: signSchema },
    async (request) => {
      const video = await uploadingVideo(ctx, request, request.params.id);
      const upload = await openUpload(video.id, request.body.upload_id);
      const expiresAt = new Date(ctx.now() + MULTIPART_PART_URL_TTL_S * 1000);
      const parts = await backend().signParts(
        upload,
        request.body.part_numbers,
        expiresAt,
        requestOrigin(ctx, request),
      );
      return { parts, expires_at: expiresAt.toISOString() };
    },
  );

  // list-parts, also reachable as /parts (the name the client queue uses).
  for (const suffix of ['list-parts', 'parts']) {
    app.get<{ Params: Params; Querystring: { upload_id: string } }>(
      `/api/videos/:id/multipart/${suffix}`,
      { schema: queryUploadSchema },
      async (request) => {
        const video = await uploadingVideo(ctx, request, request.params.id);
        const upload = await openUpload(video.id, request.query.upload_id);
        return { parts: await backend().listParts(upload) };
      },
    );
  }

  app.post<{
    Params: Params;
    Body: { upload_id: string; parts: { part_number: number; etag: string }[] };
  }>('/api/videos/:id/multipart/complete', { schema: completeSchema }, async (request) => {
    const video = await uploadingVideo(ctx, request, request.params.id);
    const upload = await findUpload(video.id, request.body.upload_id);
    if (upload.status === 'completed') {
      // A repeated complete (the first answer was lost) answers the same result.
      const stat = await ctx.storage.stat(upload.storage_key);
      if (stat) return { key: upload.storage_key, size: stat.size };
      throw new HttpError(409, 'The upload was completed but its file is gone; start again.');
    }
    const size = await backend().complete(upload, request.body.parts);
    await closeMultipart(ctx.db, upload.id, 'completed');
    // Parts arrive in any order, so no hash was taken on the way: the analysis takes it.
    await clearContentHash(ctx.db, video.id);
    // S3 does not limit the parts a presigned URL receives: the joined object is checked here.
    if (size > VIDEO_MAX_BYTES) {
      await ctx.storage.delete(upload.storage_key);
      await markFailed(ctx.db, video.id, TOO_LARGE_REASON, 'too-large');
      throw new HttpError(413, TOO_LARGE_MESSAGE);
    }
    return { key: upload.storage_key, size };
  });

  app.delete<{ Params: Params; Querystring: { upload_id: string } }>(
    '/api/videos/:id/multipart',
    { schema: queryUploadSchema },
    async (request, reply) => {
      const video = await uploadingVideo(ctx, request, request.params.id);
      const upload = isUuid(request.query.upload_id)
        ? await findMultipart(ctx.db, request.query.upload_id)
        : undefined;
      if (!upload || upload.video_id !== video.id) throw new HttpError(404, 'Upload not found');
      if (upload.status === 'open' && (await closeMultipart(ctx.db, upload.id, 'aborted'))) {
        await backend().abort(upload);
      }
      return reply.status(204).send();
    },
  );
}
