// POST /api/videos: the video record and a signed form for its file. An Idempotency-Key (the
// client's upload job id) makes a repeated create answer the same video with a fresh form.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError, fieldError } from '../../lib/http-error.ts';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  SUPPORTED_VIDEO_LANGUAGES,
  UPLOAD_FORM_TTL_S,
  VIDEO_FILENAME_MAX_LENGTH,
  VIDEO_LENGTH_MAX_S,
  VIDEO_UPLOAD_CONTENT_TYPE,
} from '../../limits.ts';
import {
  TEXT_AREA_MAX_LENGTH,
  VIDEO_EXTENSIONS,
  VIDEO_MAX_BYTES,
} from '../../../../src/config/limits.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { videosByDigest, type ArchivedVideo } from '../../repositories/content-hash.ts';
import { insertVideoOnce } from '../../repositories/videos-upload.ts';
import { uploadBackend } from '../../storage/create.ts';
import { SHA256_PATTERN } from './check-files.ts';
import { requestOrigin } from './video-access.ts';

/** The 409 of a create whose bytes the team has: the words the app shows, and which video. */
export function alreadyInArchive(video: ArchivedVideo): HttpError {
  return new HttpError(409, `Already in the archive as ${video.title || video.filename}.`, {
    video,
  });
}

interface CreateVideoBody {
  filename: string;
  video_length: number;
  video_date: string;
  output_language: string;
  about_this_video?: string;
  trailer_instruction?: string | null;
  /** Issue 42: the file's size and SHA-256 as the client knows them, and "upload it anyway". */
  file_size?: number;
  content_sha256?: string;
  allow_duplicate?: boolean;
}

const bodySchema = {
  type: 'object',
  required: ['filename', 'video_length', 'video_date', 'output_language'],
  properties: {
    filename: { type: 'string', minLength: 1, maxLength: VIDEO_FILENAME_MAX_LENGTH },
    video_length: { type: 'number', exclusiveMinimum: 0, maximum: VIDEO_LENGTH_MAX_S },
    video_date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}$' },
    output_language: { type: 'string', enum: SUPPORTED_VIDEO_LANGUAGES.map((l) => l.code) },
    about_this_video: { type: 'string', maxLength: TEXT_AREA_MAX_LENGTH },
    trailer_instruction: { type: ['string', 'null'], maxLength: TEXT_AREA_MAX_LENGTH },
    file_size: { type: 'integer', minimum: 1, maximum: VIDEO_MAX_BYTES },
    content_sha256: { type: 'string', pattern: SHA256_PATTERN },
    allow_duplicate: { type: 'boolean' },
  },
} as const;

/** The lower-cased extension when the name is a plain file name of an accepted video type. */
function videoExtension(filename: string): string {
  // Control characters and path separators have no place in a displayed file name, nor have
  // bidirectional controls, which can show "clip\u202egnp.mp4" as "clipmp4.png".
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f/\\\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(filename)) {
    throw fieldError('filename', 'filename must be a plain file name');
  }
  const ext = /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  if (!(VIDEO_EXTENSIONS as readonly string[]).includes(ext)) {
    throw fieldError('filename', 'filename must end in .mp4, .m4v or .mov');
  }
  return ext;
}

/** The pattern allows 2023-02-30; a real calendar check keeps such dates out of the database. */
function checkLocalDateTime(value: string): void {
  const [date = '', time = ''] = value.split('T');
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm, ss] = time.split(':').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  const valid =
    y >= 1900 &&
    probe.getUTCFullYear() === y &&
    probe.getUTCMonth() === m - 1 &&
    probe.getUTCDate() === d &&
    hh < 24 &&
    mm < 60 &&
    ss < 60;
  if (!valid) throw fieldError('video_date', 'video_date is not a valid date and time');
}

function idempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new HttpError(422, [
      {
        loc: ['header', 'idempotency-key'],
        msg: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`,
        type: 'value_error',
      },
    ]);
  }
  return value;
}

export function registerCreateVideo(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: CreateVideoBody }>(
    '/api/videos',
    { schema: { body: bodySchema } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      const body = request.body;
      const ext = videoExtension(body.filename);
      checkLocalDateTime(body.video_date);
      const key = idempotencyKey(request.headers['idempotency-key']);
      const sha256 = body.content_sha256?.toLowerCase() ?? null;
      if (sha256 && body.allow_duplicate !== true) {
        const found = await videosByDigest(ctx.db, user.team_id, [sha256], {
          exceptOwner: user.id,
          exceptIdempotencyKey: key,
        });
        const video = found.get(sha256);
        if (video) throw alreadyInArchive(video);
      }
      const id = crypto.randomUUID();
      const { video, created } = await insertVideoOnce(ctx.db, {
        id,
        teamId: user.team_id,
        ownerId: user.id,
        filename: body.filename,
        videoLength: body.video_length,
        videoDate: body.video_date,
        outputLanguage: body.output_language,
        aboutThisVideo: body.about_this_video ?? '',
        trailerInstruction: body.trailer_instruction || null,
        sourceKey: `input/${id}/source.${ext}`,
        idempotencyKey: key,
        fileSize: body.file_size ?? null,
        contentSha256: sha256,
        allowDuplicate: body.allow_duplicate === true,
      });
      const postUrl = await uploadBackend(ctx).postForm({
        key: video.source_key ?? '',
        contentType: VIDEO_UPLOAD_CONTENT_TYPE,
        maxBytes: VIDEO_MAX_BYTES,
        expiresAt: new Date(ctx.now() + UPLOAD_FORM_TTL_S * 1000),
        origin: requestOrigin(ctx, request),
      });
      return reply.status(created ? 201 : 200).send({ data: { id: video.id, post_url: postUrl } });
    },
  );
}
