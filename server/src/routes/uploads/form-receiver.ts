// POST /api/uploads/form (STORAGE=local): receives the signed upload form as S3 would. Fields
// come first and are checked against the signed policy before a byte of the file is written; the
// file streams to disk and is refused (and its partial copy deleted) the moment it is too big.
import fs from 'node:fs';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { recordContentHash } from '../../repositories/content-hash.ts';
import { findVideoBySourceKey } from '../../repositories/videos-upload.ts';
import { LOCAL_BUCKET, PostPolicyError, verifyPostForm } from '../../storage/post-policy.ts';
import {
  TooLargeError,
  receiptEtag,
  receiveToFile,
  type LocalUploads,
} from '../../storage/uploads-local.ts';
import { uploadBackend } from '../../storage/create.ts';
import { postResponseXml, sendS3Error } from './s3-answers.ts';

const MALFORMED = 'The body of your POST request is not well-formed multipart/form-data.';

/**
 * The multipart parser's own errors (@fastify/busboy: no boundary, data ending mid-part): the
 * request is malformed, not the server. System and database errors carry a code and stay 500.
 */
function isMalformedMultipart(err: unknown): boolean {
  return err instanceof Error && !('code' in err) && /multipart|boundary/i.test(err.message);
}

interface Stored {
  key: string;
  etag: string;
  status: number;
}

async function storeFile(
  ctx: AppContext,
  local: LocalUploads,
  fields: Map<string, string>,
  file: MultipartFile,
): Promise<Stored> {
  const form = verifyPostForm(ctx.secrets.uploadKey, fields, new Date(ctx.now()));
  const video = await findVideoBySourceKey(ctx.db, form.key);
  if (!video || video.status !== 'uploading') {
    throw new PostPolicyError(403, 'AccessDenied', 'This upload is no longer accepted.');
  }
  const tmp = await local.newFormTempFile();
  try {
    // The one read of the bytes on this server: the content hash is taken on the way to disk.
    const { size, sha256 } = await receiveToFile(file.file, tmp, form.maxBytes, { sha256: true });
    if (size < form.minBytes) {
      throw new PostPolicyError(
        400,
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed size',
      );
    }
    await local.commit(tmp, form.key);
    await recordContentHash(ctx.db, video.id, sha256!, size);
    return { key: form.key, etag: receiptEtag(), status: form.successStatus };
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    if (err instanceof TooLargeError) {
      throw new PostPolicyError(
        400,
        'EntityTooLarge',
        'Your proposed upload exceeds the maximum allowed size',
      );
    }
    throw err;
  }
}

export function registerFormReceiver(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/uploads/form', { config: { public: true } }, async (request, reply) => {
    const backend = uploadBackend(ctx);
    if (backend.kind !== 'local') return reply.status(404).send({ detail: 'Not found' });
    if (!request.isMultipart()) {
      return sendS3Error(
        request,
        reply,
        412,
        'PreconditionFailed',
        'Bucket POST must be of the enclosure-type multipart/form-data',
      );
    }
    const fields = new Map<string, string>();
    let stored: Stored | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          // S3 ignores fields after the file; names are matched without regard to case.
          if (!stored) fields.set(part.fieldname.toLowerCase(), String(part.value));
        } else if (stored) {
          part.file.resume();
        } else {
          stored = await storeFile(ctx, backend as LocalUploads, fields, part);
        }
      }
    } catch (err) {
      if (err instanceof PostPolicyError) {
        return sendS3Error(request, reply, err.status, err.code, err.message);
      }
      const status = (err as { statusCode?: number }).statusCode;
      if (status && status >= 400 && status < 500) {
        return sendS3Error(request, reply, 400, 'MalformedPOSTRequest', (err as Error).message);
      }
      if (isMalformedMultipart(err)) {
        return sendS3Error(request, reply, 400, 'MalformedPOSTRequest', MALFORMED);
      }
      throw err;
    }
    if (!stored) {
      return sendS3Error(
        request,
        reply,
        400,
        'InvalidArgument',
        'POST requires exactly one file upload per request.',
      );
    }
    reply.header('etag', stored.etag);
    if (stored.status === 201) {
      const location = `${request.protocol}://${request.host}/${stored.key}`;
      return reply
        .status(201)
        .type('application/xml')
        .send(postResponseXml(location, LOCAL_BUCKET, stored.key, stored.etag));
    }
    return reply.status(stored.status === 200 ? 200 : 204).send();
  });
}
