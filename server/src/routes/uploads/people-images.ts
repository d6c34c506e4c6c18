// POST /api/videos/:id/upload-people-images: multipart names[] and images[] (or names, images),
// paired by order. Each image is checked by its first bytes and its extension, SVGs are rebuilt
// by the sanitiser, and the set replaces the video's previous people (rows and files).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError, type DetailEntry } from '../../lib/http-error.ts';
import { PEOPLE_IMAGES_MAX_BYTES, PEOPLE_MAX, PERSON_NAME_MAX_LENGTH } from '../../limits.ts';
import { IMAGE_MAX_BYTES, MEGABYTE } from '../../../../src/config/limits.ts';
import { pictureKind, type PictureKind } from '../../media/still-image.ts';
import { replacePeople, type PersonRow } from '../../repositories/videos-upload.ts';
import { receiveToFile, TooLargeError } from '../../storage/uploads-local.ts';
import { ImageRejected } from './image-limits.ts';
import { imagePool } from './image-pool.ts';
import type { ImageChecked } from './image-worker.ts';
import { closeAfterAnswer } from './unread-body.ts';
import { uploadingVideo, videoIdParams } from './video-access.ts';

export const PAIR_MESSAGE = 'Please add both the name and the image for this section.';
export const SIZE_MESSAGE = 'File size must not exceed 10MB';
export const TYPE_MESSAGE = 'The image must be a JPEG, PNG or SVG file.';
export const BUDGET_MESSAGE =
  `The pictures together must not exceed ${PEOPLE_IMAGES_MAX_BYTES / MEGABYTE}MB ` +
  '(SVGs counted as cleaned); please send smaller pictures.';

function invalid(loc: (string | number)[], msg: string): HttpError {
  const entry: DetailEntry = { loc: ['body', ...loc], msg, type: 'value_error' };
  return new HttpError(422, [entry]);
}

/** The kind by magic bytes, accepted only when the file name's extension agrees. */
function imageKind(head: Buffer, filename: string): PictureKind | undefined {
  const ext = path.extname(filename).slice(1).toLowerCase();
  const kind = pictureKind(head);
  const agrees = { jpg: ext === 'jpg' || ext === 'jpeg', png: ext === 'png', svg: ext === 'svg' };
  return kind && agrees[kind] ? kind : undefined;
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isField = (name: string, base: string): boolean => name === base || name === `${base}[]`;

/** One received picture checked (kind, then the pool: an SVG rebuilt to its own clean file). */
async function checkReceived(
  file: string,
  filename: string,
  index: number,
): Promise<ImageChecked & { kind: PictureKind }> {
  const kind = imageKind(await readHead(file), filename);
  if (!kind) throw invalid(['images', index], TYPE_MESSAGE);
  let checked: ImageChecked;
  try {
    checked = await imagePool().check({ kind, file, cleanFile: `${file}.clean.svg` });
  } catch (err) {
    if (err instanceof ImageRejected) throw invalid(['images', index], err.message);
    throw err;
  }
  if (checked.file !== file) await fs.promises.rm(file, { force: true });
  return { ...checked, kind };
}

export function registerPeopleImages(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Params: { id: string } }>(
    '/api/videos/:id/upload-people-images',
    { schema: { params: videoIdParams } },
    async (request, reply) => {
      const video = await uploadingVideo(ctx, request, request.params.id);
      if (!request.isMultipart())
        throw new HttpError(415, 'Send the people as multipart/form-data.');
      const tmpDir = path.join(ctx.config.dataDir, 'tmp', `people-${crypto.randomUUID()}`);
      await fs.promises.mkdir(tmpDir, { recursive: true });
      try {
        const names: string[] = [];
        // Each picture is checked as soon as it has arrived, one at a time off the event loop,
        // each to its own file: the budget is known while the request streams, and the first
        // picture over it stops the upload (nothing after it is stored).
        const prepared: { kind: PictureKind; file: string }[] = [];
        let total = 0;
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (isField(part.fieldname, 'names')) names.push(String(part.value));
            continue;
          }
          if (!isField(part.fieldname, 'images')) {
            part.file.resume();
            continue;
          }
          const i = prepared.length;
          if (i >= PEOPLE_MAX) {
            throw invalid(['images'], `At most ${PEOPLE_MAX} people can be added to a video.`);
          }
          const file = path.join(tmpDir, String(i));
          try {
            await receiveToFile(part.file, file, IMAGE_MAX_BYTES);
          } catch (err) {
            if (err instanceof TooLargeError) throw invalid(['images', i], SIZE_MESSAGE);
            throw err;
          }
          const checked = await checkReceived(file, part.filename, i);
          total += checked.bytes;
          if (total > PEOPLE_IMAGES_MAX_BYTES) throw invalid(['images', i], BUDGET_MESSAGE);
          prepared.push({ kind: checked.kind, file: checked.file });
        }
        if (names.length !== prepared.length) throw invalid(['names'], PAIR_MESSAGE);
        if (names.length > PEOPLE_MAX) {
          throw invalid(['names'], `At most ${PEOPLE_MAX} people can be added to a video.`);
        }
        for (const [i, raw] of names.entries()) {
          const name = raw.trim();
          if (!name) throw invalid(['names', i], PAIR_MESSAGE);
          if (name.length > PERSON_NAME_MAX_LENGTH) {
            throw invalid(
              ['names', i],
              `Names can be at most ${PERSON_NAME_MAX_LENGTH} characters.`,
            );
          }
        }
        // Replace: the old files go first so a renamed extension leaves nothing behind.
        const folder = `input/${video.id}/people`;
        await ctx.storage.deletePrefix(folder);
        const rows: PersonRow[] = [];
        for (const [i, p] of prepared.entries()) {
          const key = `${folder}/${i + 1}.${p.kind}`;
          await ctx.storage.put(key, fs.createReadStream(p.file));
          rows.push({ position: i + 1, name: names[i]!.trim(), image_key: key });
        }
        await ctx.db.tx((q) => replacePeople(q, video.id, rows));
        return {
          data: { id: video.id, people: rows.map((r) => ({ position: r.position, name: r.name })) },
        };
      } catch (err) {
        closeAfterAnswer(request, reply);
        throw err;
      } finally {
        await fs.promises.rm(tmpDir, { recursive: true, force: true });
      }
    },
  );
}
