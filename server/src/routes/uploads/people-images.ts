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
import { uploadingVideo, videoIdParams } from './video-access.ts';

export const PAIR_MESSAGE = 'Please add both the name and the image for this section.';
export const SIZE_MESSAGE = 'File size must not exceed 10MB';
export const TYPE_MESSAGE = 'The image must be a JPEG, PNG or SVG file.';
export const BUDGET_MESSAGE =
  `The pictures together must not exceed ${PEOPLE_IMAGES_MAX_BYTES / MEGABYTE}MB ` +
  '(SVGs counted as cleaned); please send smaller pictures.';

interface Received {
  file: string;
  filename: string;
}

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

export function registerPeopleImages(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Params: { id: string } }>(
    '/api/videos/:id/upload-people-images',
    { schema: { params: videoIdParams } },
    async (request) => {
      const video = await uploadingVideo(ctx, request, request.params.id);
      if (!request.isMultipart())
        throw new HttpError(415, 'Send the people as multipart/form-data.');
      const tmpDir = path.join(ctx.config.dataDir, 'tmp', `people-${crypto.randomUUID()}`);
      await fs.promises.mkdir(tmpDir, { recursive: true });
      try {
        const names: string[] = [];
        const images: Received[] = [];
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (isField(part.fieldname, 'names')) names.push(String(part.value));
            continue;
          }
          if (!isField(part.fieldname, 'images')) {
            part.file.resume();
            continue;
          }
          if (images.length >= PEOPLE_MAX) {
            throw invalid(['images'], `At most ${PEOPLE_MAX} people can be added to a video.`);
          }
          const file = path.join(tmpDir, String(images.length));
          try {
            await receiveToFile(part.file, file, IMAGE_MAX_BYTES);
          } catch (err) {
            if (err instanceof TooLargeError)
              throw invalid(['images', images.length], SIZE_MESSAGE);
            throw err;
          }
          images.push({ file, filename: part.filename });
        }
        if (names.length !== images.length) throw invalid(['names'], PAIR_MESSAGE);
        if (names.length > PEOPLE_MAX) {
          throw invalid(['names'], `At most ${PEOPLE_MAX} people can be added to a video.`);
        }
        // Checked one at a time off the event loop, each picture to its own file: only the
        // files and their sizes are kept, never the pictures together in memory.
        const prepared: { name: string; kind: PictureKind; file: string }[] = [];
        let total = 0;
        for (const [i, image] of images.entries()) {
          const name = names[i]!.trim();
          if (!name) throw invalid(['names', i], PAIR_MESSAGE);
          if (name.length > PERSON_NAME_MAX_LENGTH) {
            throw invalid(
              ['names', i],
              `Names can be at most ${PERSON_NAME_MAX_LENGTH} characters.`,
            );
          }
          const kind = imageKind(await readHead(image.file), image.filename);
          if (!kind) throw invalid(['images', i], TYPE_MESSAGE);
          let checked: ImageChecked;
          try {
            checked = await imagePool().check({
              kind,
              file: image.file,
              cleanFile: `${image.file}.clean.svg`,
            });
          } catch (err) {
            if (err instanceof ImageRejected) throw invalid(['images', i], err.message);
            throw err;
          }
          if (checked.file !== image.file) await fs.promises.rm(image.file, { force: true });
          total += checked.bytes;
          if (total > PEOPLE_IMAGES_MAX_BYTES) throw invalid(['images', i], BUDGET_MESSAGE);
          prepared.push({ name, kind, file: checked.file });
        }
        // Replace: the old files go first so a renamed extension leaves nothing behind.
        const folder = `input/${video.id}/people`;
        await ctx.storage.deletePrefix(folder);
        const rows: PersonRow[] = [];
        for (const [i, p] of prepared.entries()) {
          const key = `${folder}/${i + 1}.${p.kind}`;
          await ctx.storage.put(key, fs.createReadStream(p.file));
          rows.push({ position: i + 1, name: p.name, image_key: key });
        }
        await ctx.db.tx((q) => replacePeople(q, video.id, rows));
        return {
          data: { id: video.id, people: rows.map((r) => ({ position: r.position, name: r.name })) },
        };
      } finally {
        await fs.promises.rm(tmpDir, { recursive: true, force: true });
      }
    },
  );
}
