// Direct uploads of a video's original file, the same protocol over both drivers: a signed form
// (S3's presigned POST) and a resumable multipart upload (S3's own multipart protocol). Under
// STORAGE=s3 the browser talks to S3; under STORAGE=local this server plays S3's part.
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { MultipartRow, PartRow } from '../repositories/multipart-uploads.ts';
import type { Secrets } from '../secrets.ts';
import type { Storage } from './storage.ts';

/**
 * What a backend takes from the application (the context fits it), not the whole context: its
 * storage, database, data folder, signing key and clock (read at each call: tests move it).
 */
export interface UploadDeps {
  readonly storage: Storage;
  readonly db: Db;
  readonly config: Pick<Config, 'dataDir'>;
  readonly secrets: Pick<Secrets, 'uploadKey'>;
  now(): number;
}

export interface PostForm {
  url: string;
  fields: Record<string, string>;
}

export interface FormRequest {
  key: string;
  contentType: string;
  maxBytes: number;
  expiresAt: Date;
  /** Origin the client reached this server at (local driver's URLs point back to it). */
  origin: string;
}

export interface UploadBackend {
  readonly kind: 'local' | 's3';
  postForm(req: FormRequest): Promise<PostForm>;
  /** Starts a multipart upload; answers S3's UploadId (null for the local backend). */
  createMultipart(upload: { id: string; key: string; contentType: string }): Promise<string | null>;
  signParts(
    upload: MultipartRow,
    partNumbers: number[],
    expiresAt: Date,
    origin: string,
  ): Promise<{ part_number: number; url: string }[]>;
  listParts(upload: MultipartRow): Promise<PartRow[]>;
  /** Joins the parts into the object; answers its size. Throws HttpError 400 on a bad list. */
  complete(upload: MultipartRow, parts: { part_number: number; etag: string }[]): Promise<number>;
  /** Drops every received part; harmless when already gone. */
  abort(upload: MultipartRow): Promise<void>;
}

/** S3 compares ETags without their quotes. */
export function bareEtag(etag: string): string {
  return etag.replace(/"/g, '');
}
