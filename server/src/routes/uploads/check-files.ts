// POST /api/videos/check-files {files: [{key, size, sha256?}]}: "which of these does the team
// already have?", asked before anything is sent (issue 42). Size first: only a file whose size
// some team video has needs its SHA-256 worked out by the caller.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import { CHECK_FILES_KEY_MAX_LENGTH, CHECK_FILES_MAX } from '../../limits.ts';
import { requireAuth } from '../../plugins/auth.ts';
import {
  sizesInArchive,
  videosByDigest,
  type ArchivedVideo,
} from '../../repositories/content-hash.ts';

export const SHA256_PATTERN = '^[0-9a-fA-F]{64}$';

interface CheckFilesBody {
  files: { key: string; size: number; sha256?: string }[];
}

export type FileState = 'new' | 'needs-hash' | 'in-archive';

export interface CheckedFile {
  key: string;
  state: FileState;
  video?: ArchivedVideo;
}

const schema = {
  body: {
    type: 'object',
    required: ['files'],
    properties: {
      // The count is checked in the handler, so that too many files get a sentence, not a rule.
      files: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['key', 'size'],
          properties: {
            key: { type: 'string', maxLength: CHECK_FILES_KEY_MAX_LENGTH },
            size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
            sha256: { type: 'string', pattern: SHA256_PATTERN },
          },
        },
      },
    },
  },
} as const;

/** 10,000 files of 1,024-character keys with digests fit. */
const BODY_LIMIT = 16 * 1024 * 1024;

export const TOO_MANY_FILES = `At most ${CHECK_FILES_MAX.toLocaleString('en')} files can be checked at once. Send them in batches of ${CHECK_FILES_MAX.toLocaleString('en')} or fewer.`;

export function registerCheckFiles(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: CheckFilesBody }>(
    '/api/videos/check-files',
    { schema, bodyLimit: BODY_LIMIT },
    async (request) => {
      const { user } = requireAuth(request);
      const { files } = request.body;
      if (files.length > CHECK_FILES_MAX) {
        throw new HttpError(422, [
          { loc: ['body', 'files'], msg: TOO_MANY_FILES, type: 'too_long' },
        ]);
      }
      const digests = files.flatMap((f) => (f.sha256 ? [f.sha256.toLowerCase()] : []));
      const unhashedSizes = files.flatMap((f) => (f.sha256 ? [] : [f.size]));
      const [found, sizes] = await Promise.all([
        videosByDigest(ctx.db, user.team_id, digests),
        sizesInArchive(ctx.db, user.team_id, unhashedSizes),
      ]);
      const items = files.map((f): CheckedFile => {
        if (f.sha256) {
          const video = found.get(f.sha256.toLowerCase());
          return video ? { key: f.key, state: 'in-archive', video } : { key: f.key, state: 'new' };
        }
        return { key: f.key, state: sizes.has(f.size) ? 'needs-hash' : 'new' };
      });
      return { items };
    },
  );
}
