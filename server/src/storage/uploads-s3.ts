// Direct uploads under STORAGE=s3: S3's presigned POST and S3's multipart protocol, with part
// URLs presigned for the browser.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { HttpError } from '../lib/http-error.ts';
import type { MultipartRow, PartRow } from '../repositories/multipart-uploads.ts';
import { S3Storage } from './s3.ts';
import type { FormRequest, PostForm, UploadBackend, UploadDeps } from './uploads.ts';

function errorName(err: unknown): string {
  return (err as { name?: string }).name ?? '';
}

export class S3Uploads implements UploadBackend {
  readonly kind = 's3' as const;
  private readonly s3: S3Storage;

  constructor(private readonly deps: UploadDeps) {
    if (!(deps.storage instanceof S3Storage)) throw new Error('S3Uploads needs the S3 storage');
    this.s3 = deps.storage;
  }

  async postForm(req: FormRequest): Promise<PostForm> {
    const seconds = Math.max(1, Math.floor((req.expiresAt.getTime() - this.deps.now()) / 1000));
    const extra = { 'Content-Type': req.contentType, success_action_status: '201' };
    const { url, fields } = await createPresignedPost(this.s3.client, {
      Bucket: this.s3.bucket,
      Key: req.key,
      Conditions: [
        ['content-length-range', 1, req.maxBytes],
        ...Object.entries(extra).map(([k, v]) => ({ [k]: v })),
      ],
      Fields: extra,
      Expires: seconds,
    });
    return { url, fields };
  }

  async createMultipart(upload: { key: string; contentType: string }): Promise<string> {
    const out = await this.s3.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.s3.bucket,
        Key: upload.key,
        ContentType: upload.contentType,
      }),
    );
    if (!out.UploadId) throw new Error('S3 answered no UploadId');
    return out.UploadId;
  }

  async signParts(
    upload: MultipartRow,
    partNumbers: number[],
    expiresAt: Date,
  ): Promise<{ part_number: number; url: string }[]> {
    const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - this.deps.now()) / 1000));
    return Promise.all(
      partNumbers.map(async (n) => ({
        part_number: n,
        url: await getSignedUrl(
          this.s3.client,
          new UploadPartCommand({
            Bucket: this.s3.bucket,
            Key: upload.storage_key,
            UploadId: upload.backend_upload_id ?? '',
            PartNumber: n,
          }),
          { expiresIn },
        ),
      })),
    );
  }

  async listParts(upload: MultipartRow): Promise<PartRow[]> {
    const parts: PartRow[] = [];
    let marker: string | undefined;
    do {
      const page = await this.s3.client.send(
        new ListPartsCommand({
          Bucket: this.s3.bucket,
          Key: upload.storage_key,
          UploadId: upload.backend_upload_id ?? '',
          PartNumberMarker: marker,
        }),
      );
      for (const p of page.Parts ?? []) {
        parts.push({ part_number: p.PartNumber ?? 0, etag: p.ETag ?? '', size: p.Size ?? 0 });
      }
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    return parts;
  }

  async complete(
    upload: MultipartRow,
    parts: { part_number: number; etag: string }[],
  ): Promise<number> {
    try {
      await this.s3.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.s3.bucket,
          Key: upload.storage_key,
          UploadId: upload.backend_upload_id ?? '',
          MultipartUpload: {
            Parts: parts.map((p) => ({ PartNumber: p.part_number, ETag: p.etag })),
          },
        }),
      );
    } catch (err) {
      const name = errorName(err);
      // InvalidPart: a listed ETag is not the part S3 holds (409, as the local driver says it).
      if (name === 'InvalidPart') throw new HttpError(409, `The parts cannot be joined: ${name}`);
      if (['InvalidPartOrder', 'EntityTooSmall', 'NoSuchUpload'].includes(name)) {
        throw new HttpError(400, `The parts cannot be joined: ${name}`);
      }
      throw err;
    }
    const stat = await this.s3.stat(upload.storage_key);
    return stat?.size ?? 0;
  }

  async abort(upload: MultipartRow): Promise<void> {
    try {
      await this.s3.client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.s3.bucket,
          Key: upload.storage_key,
          UploadId: upload.backend_upload_id ?? '',
        }),
      );
    } catch (err) {
      if (errorName(err) !== 'NoSuchUpload') throw err;
    }
  }
}
