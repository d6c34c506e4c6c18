// Direct uploads under STORAGE=local: this server signs the forms and part URLs, receives them
// (routes/uploads/form-receiver.ts and part-receiver.ts) and keeps work in progress under
// DATA_DIR/tmp until it is moved into storage in one rename.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '../lib/http-error.ts';
import { VIDEO_MAX_BYTES } from '../../../src/config/limits.ts';
import {
  deletePart,
  listSavedParts,
  savePart,
  type MultipartRow,
  type PartRow,
} from '../repositories/multipart-uploads.ts';
import { LocalStorage } from './local.ts';
import { signPostPolicy } from './post-policy.ts';
import {
  bareEtag,
  type FormRequest,
  type PostForm,
  type UploadBackend,
  type UploadDeps,
} from './uploads.ts';

/** Thrown while streaming when a body passes its size limit; the partial file is gone by then. */
export class TooLargeError extends Error {}

/** Received bytes are written in blocks of this size (see receiveToFile). */
const WRITE_BLOCK_BYTES = 1024 * 1024;

/**
 * Streams body into file (at a byte offset when given), refusing more than maxBytes as soon as
 * it is passed. Answers the size. A browser's body arrives in many small socket reads: written
 * one by one they cost the server more CPU (a write call each, and garbage) than the rest of the
 * transfer, so they are gathered into 1 MiB blocks first. No MD5 is taken (it cost about 2.5 s
 * of CPU per GB, and nothing here needs one: see receiptEtag); with `sha256` each block is hashed
 * as it is written, the video's content hash (docs/decisions/content-hash.md).
 */
export async function receiveToFile(
  body: Readable,
  file: string,
  maxBytes: number,
  opts: { start?: number; flags?: string; sha256?: boolean } = {},
): Promise<{ size: number; sha256?: string }> {
  let size = 0;
  const hash = opts.sha256 ? crypto.createHash('sha256') : undefined;
  async function* blocks(source: Readable): AsyncGenerator<Buffer> {
    let block = Buffer.allocUnsafe(WRITE_BLOCK_BYTES);
    let filled = 0;
    for await (const chunk of source) {
      let buf = chunk as Buffer;
      size += buf.length;
      if (size > maxBytes) throw new TooLargeError(`more than ${maxBytes} bytes`);
      while (buf.length > 0) {
        const n = buf.copy(block, filled);
        filled += n;
        buf = buf.subarray(n);
        if (filled === block.length) {
          hash?.update(block);
          yield block; // the write stream keeps it until written: the next block is a new one
          block = Buffer.allocUnsafe(WRITE_BLOCK_BYTES);
          filled = 0;
        }
      }
    }
    if (filled > 0) {
      hash?.update(block.subarray(0, filled));
      yield block.subarray(0, filled);
    }
  }
  await pipeline(
    body,
    blocks,
    fs.createWriteStream(file, { flags: opts.flags ?? 'w', start: opts.start ?? 0 }),
  );
  return hash ? { size, sha256: hash.digest('hex') } : { size };
}

/**
 * The ETag of one received copy of a part or form upload: a random receipt, not a digest. It is
 * opaque to clients (S3's multipart ETags are too) and complete only checks that each listed part
 * is the copy the server kept, which a receipt tells as well as a digest: a re-sent part gets a
 * new one, so a stale list is refused.
 */
export function receiptEtag(): string {
  return `"${crypto.randomBytes(16).toString('hex')}"`;
}

export class LocalUploads implements UploadBackend {
  readonly kind = 'local' as const;
  readonly storage: LocalStorage;

  constructor(private readonly deps: UploadDeps) {
    if (!(deps.storage instanceof LocalStorage)) throw new Error('LocalUploads needs LocalStorage');
    this.storage = deps.storage;
  }

  /** Work in progress lives beside the storage root so a finished file moves by rename. */
  get tmpRoot(): string {
    return path.join(this.deps.config.dataDir, 'tmp');
  }

  multipartDir(id: string): string {
    return path.join(this.tmpRoot, 'multipart', id);
  }

  async newFormTempFile(): Promise<string> {
    const dir = path.join(this.tmpRoot, 'uploads');
    await fs.promises.mkdir(dir, { recursive: true });
    return path.join(dir, `${crypto.randomUUID()}.part`);
  }

  /** Moves a finished file into storage under key (replacing what was there). */
  async commit(tmp: string, key: string): Promise<void> {
    const target = this.storage.file(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.promises.rename(tmp, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await this.storage.put(key, fs.createReadStream(tmp));
      await fs.promises.rm(tmp, { force: true });
    }
  }

  async postForm(req: FormRequest): Promise<PostForm> {
    const fields = signPostPolicy(
      this.deps.secrets.uploadKey,
      {
        key: req.key,
        expiresAt: req.expiresAt,
        minBytes: 1,
        maxBytes: req.maxBytes,
        fields: { 'Content-Type': req.contentType, success_action_status: '201' },
      },
      new Date(this.deps.now()),
    );
    return { url: `${req.origin}/api/uploads/form`, fields };
  }

  async createMultipart(upload: { id: string }): Promise<null> {
    const dir = this.multipartDir(upload.id);
    await fs.promises.mkdir(dir, { recursive: true });
    // Parts are written straight to their offset in one sparse file: completing is a rename.
    await fs.promises.writeFile(path.join(dir, 'data'), '');
    return null;
  }

  partSignature(uploadId: string, partNumber: number, expires: number): string {
    return crypto
      .createHmac('sha256', this.deps.secrets.uploadKey)
      .update(`upload-part\n${uploadId}\n${partNumber}\n${expires}`)
      .digest('hex');
  }

  verifyPartSignature(uploadId: string, partNumber: number, expires: number, sig: string): boolean {
    const expected = Buffer.from(this.partSignature(uploadId, partNumber, expires), 'hex');
    const given = Buffer.from(sig, 'hex');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  async signParts(
    upload: MultipartRow,
    partNumbers: number[],
    expiresAt: Date,
    origin: string,
  ): Promise<{ part_number: number; url: string }[]> {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return partNumbers.map((n) => ({
      part_number: n,
      url:
        `${origin}/api/uploads/parts/${upload.id}/${n}` +
        `?expires=${expires}&signature=${this.partSignature(upload.id, n, expires)}`,
    }));
  }

  /** Receives one part. The old record goes first: an interrupted re-send leaves it missing. */
  async receivePart(upload: MultipartRow, partNumber: number, body: Readable): Promise<PartRow> {
    await deletePart(this.deps.db, upload.id, partNumber);
    const { size } = await receiveToFile(
      body,
      path.join(this.multipartDir(upload.id), 'data'),
      upload.part_size,
      { start: (partNumber - 1) * upload.part_size, flags: 'r+' },
    );
    const part = { part_number: partNumber, etag: receiptEtag(), size };
    await savePart(this.deps.db, upload.id, part);
    return part;
  }

  listParts(upload: MultipartRow): Promise<PartRow[]> {
    return listSavedParts(this.deps.db, upload.id);
  }

  async complete(
    upload: MultipartRow,
    parts: { part_number: number; etag: string }[],
  ): Promise<number> {
    const saved = new Map((await this.listParts(upload)).map((p) => [p.part_number, p]));
    let total = 0;
    for (const [i, p] of parts.entries()) {
      // Parts sit at fixed offsets, so the list must be 1..N and every part but the last full.
      if (p.part_number !== i + 1) {
        throw new HttpError(400, 'Parts must be listed in order 1..N without gaps.');
      }
      const have = saved.get(p.part_number);
      if (!have || bareEtag(have.etag) !== bareEtag(p.etag)) {
        // 409: the list is stale (a part was written again since); listing the parts again heals it.
        throw new HttpError(409, `Part ${p.part_number} was not uploaded or its ETag differs.`);
      }
      if (i < parts.length - 1 && have.size !== upload.part_size) {
        throw new HttpError(
          400,
          `Part ${p.part_number} must be exactly ${upload.part_size} bytes.`,
        );
      }
      total += have.size;
    }
    if (total > VIDEO_MAX_BYTES) {
      // Never joined: the route fails the video and answers 413, as for S3.
      await this.abort(upload);
      return total;
    }
    const data = path.join(this.multipartDir(upload.id), 'data');
    await fs.promises.truncate(data, total);
    await this.commit(data, upload.storage_key);
    await fs.promises.rm(this.multipartDir(upload.id), { recursive: true, force: true });
    return total;
  }

  async abort(upload: MultipartRow): Promise<void> {
    await fs.promises.rm(this.multipartDir(upload.id), { recursive: true, force: true });
  }
}
