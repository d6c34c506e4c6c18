// PUT /api/uploads/parts/:uploadId/:partNumber (STORAGE=local): one part of a multipart upload,
// authorised by the signed URL alone (as S3's presigned UploadPart is), streamed to its offset.
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { MULTIPART_MAX_PARTS } from '../../limits.ts';
import { findMultipart } from '../../repositories/multipart-uploads.ts';
import { TooLargeError, type LocalUploads } from '../../storage/uploads-local.ts';
import { uploadBackend } from '../../storage/create.ts';
import { sendS3Error } from './s3-answers.ts';
import { isUuid } from './video-access.ts';

interface PartRequest {
  Params: { uploadId: string; partNumber: string };
  Querystring: { expires?: string; signature?: string };
}

/** Registers in its own scope: the body is passed through untouched, whatever its type. */
export async function registerPartReceiver(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.put<PartRequest>(
    '/api/uploads/parts/:uploadId/:partNumber',
    { config: { public: true } },
    async (request, reply) => {
      const backend = uploadBackend(ctx);
      if (backend.kind !== 'local') return reply.status(404).send({ detail: 'Not found' });
      const local = backend as LocalUploads;
      const { uploadId } = request.params;
      const partNumber = Number(request.params.partNumber);
      const expires = Number(request.query.expires);
      const signature = request.query.signature ?? '';
      const deny = (status: number, code: string, message: string) =>
        sendS3Error(request, reply, status, code, message);

      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MULTIPART_MAX_PARTS) {
        return deny(400, 'InvalidArgument', 'Part number must be an integer in range.');
      }
      if (
        !isUuid(uploadId) ||
        !local.verifyPartSignature(uploadId, partNumber, expires, signature)
      ) {
        return deny(403, 'SignatureDoesNotMatch', 'The request signature does not match.');
      }
      if (!Number.isFinite(expires) || expires * 1000 <= ctx.now()) {
        return deny(403, 'AccessDenied', 'Request has expired');
      }
      const upload = await findMultipart(ctx.db, uploadId);
      if (!upload || upload.status !== 'open' || upload.expires_at.getTime() <= ctx.now()) {
        return deny(404, 'NoSuchUpload', 'The specified upload does not exist.');
      }
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > upload.part_size) {
        return deny(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
      }
      const body = (request.body as Readable | undefined) ?? request.raw;
      try {
        const part = await local.receivePart(upload, partNumber, body);
        return reply.status(200).header('etag', part.etag).send();
      } catch (err) {
        if (err instanceof TooLargeError) {
          return deny(
            400,
            'EntityTooLarge',
            'Your proposed upload exceeds the maximum allowed size',
          );
        }
        throw err;
      }
    },
  );
}
