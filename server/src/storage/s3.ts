// S3-compatible storage (STORAGE=s3): the bucket holds the same keys the local driver keeps
// under DATA_DIR/files. Credentials come from the usual AWS variables (default provider chain).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import { contentTypeOf } from './local.ts';
import { digestTap } from '../lib/content-digest.ts';
import { assertSafeKey, type LocalCopy, type Storage, type StoredObject } from './storage.ts';

export function createS3Client(s3: Config['s3']): S3Client {
  return new S3Client({
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint, forcePathStyle: true } : {}),
    // Without these the SDK adds CRC32 checksums to every request, which presigned part URLs
    // used by browsers cannot carry and some S3-compatible servers reject.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {
    if (!bucket) throw new Error('STORAGE=s3 needs S3_BUCKET');
  }

  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<void> {
    assertSafeKey(key);
    const type = contentType ?? contentTypeOf(key);
    if (Buffer.isBuffer(body)) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: type }),
      );
      return;
    }
    // PutObject needs a length up front: spool the stream to a temp file first.
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-s3-put-'));
    const tmp = path.join(dir, 'body');
    try {
      await pipeline(body, fs.createWriteStream(tmp));
      const { size } = await fs.promises.stat(tmp);
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: fs.createReadStream(tmp),
          ContentLength: size,
          ContentType: type,
        }),
      );
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertSafeKey(key);
    const out = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return out.Body as Readable;
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0), contentType: head.ContentType };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const folder = prefix.replace(/\/+$/, '');
    assertSafeKey(folder);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: `${folder}/`,
          ContinuationToken: token,
        }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async localPath(key: string, opts: { digest?: boolean } = {}): Promise<LocalCopy> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-s3-get-'));
    const file = path.join(dir, `${crypto.randomUUID()}${path.extname(key)}`);
    // The download is the one read of the bytes here: they are hashed on the way to the disk.
    const digest = opts.digest ? digestTap() : undefined;
    try {
      if (digest) await pipeline(await this.read(key), digest.tap, fs.createWriteStream(file));
      else await pipeline(await this.read(key), fs.createWriteStream(file));
    } catch (err) {
      await fs.promises.rm(dir, { recursive: true, force: true });
      throw err;
    }
    return {
      path: file,
      release: () => fs.promises.rm(dir, { recursive: true, force: true }),
      ...(digest ? { digest: digest.digest() } : {}),
    };
  }
}
