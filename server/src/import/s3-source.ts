// `npm run admin -- import s3://bucket/prefix`: every object under the prefix, read with the
// installation's S3 settings. In a module of its own so that a folder's import never loads the
// AWS SDK.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { digestTap, type ContentDigest } from '../lib/content-digest.ts';
import {
  excluded,
  refusal,
  type Listing,
  type LocalFile,
  type Source,
  type SourceFile,
} from './sources.ts';

/** s3://bucket/prefix, read with the installation's S3 settings (S3_ENDPOINT, AWS_* keys). */
export class S3Source implements Source {
  readonly label: string;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(
    private readonly client: S3Client,
    address: string,
  ) {
    const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(address);
    if (!m) throw new Error(`${address} is not an s3://bucket/prefix address.`);
    this.bucket = m[1]!;
    // A prefix names a folder: "clips" lists clips/..., not clips-old/...
    this.prefix = m[2] && !m[2].endsWith('/') ? `${m[2]}/` : (m[2] ?? '');
    this.label = `s3://${this.bucket}/${this.prefix}`;
  }

  async list(exclude: readonly RegExp[]): Promise<Listing> {
    const out: Listing = { accepted: [], leftOut: [], unreadable: [] };
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) {
        const key = (o.Key ?? '').slice(this.prefix.length);
        if (!key || key.endsWith('/') || excluded(key, exclude)) continue;
        const size = o.Size ?? 0;
        const why = refusal(key, size);
        if (why) out.leftOut.push({ key, reason: why });
        else out.accepted.push({ key, size, date: o.LastModified ?? new Date() });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    out.accepted.sort((a, b) => (a.key < b.key ? -1 : 1));
    return out;
  }

  private async read(f: SourceFile): Promise<Readable> {
    const res = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + f.key }),
    );
    return res.Body as Readable;
  }

  async digest(f: SourceFile): Promise<ContentDigest> {
    const tap = digestTap();
    await pipeline(await this.read(f), tap.tap, async (s) => {
      for await (const _ of s) void _;
    });
    return tap.digest();
  }

  async local(f: SourceFile): Promise<LocalFile> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-import-'));
    const file = path.join(dir, `${crypto.randomUUID()}${path.extname(f.key)}`);
    const release = () => fs.promises.rm(dir, { recursive: true, force: true });
    const tap = digestTap();
    try {
      await pipeline(await this.read(f), tap.tap, fs.createWriteStream(file));
    } catch (err) {
      await release();
      throw err;
    }
    return { path: file, release, digest: tap.digest() };
  }
}
