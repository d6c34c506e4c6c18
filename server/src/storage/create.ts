import path from 'node:path';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { LocalStorage } from './local.ts';
import { createS3Client, S3Storage } from './s3.ts';
import type { Storage } from './storage.ts';
import type { UploadBackend } from './uploads.ts';
import { LocalUploads } from './uploads-local.ts';
import { S3Uploads } from './uploads-s3.ts';

export function createStorage(config: Config): Storage {
  if (config.storage === 's3') return new S3Storage(createS3Client(config.s3), config.s3.bucket);
  return new LocalStorage(path.join(config.dataDir, 'files'));
}

const backends = new WeakMap<AppContext, UploadBackend>();

/** The direct-upload protocol of the context's storage driver, made once per context. */
export function uploadBackend(ctx: AppContext): UploadBackend {
  let backend = backends.get(ctx);
  if (!backend) {
    backend = ctx.storage.kind === 's3' ? new S3Uploads(ctx) : new LocalUploads(ctx);
    backends.set(ctx, backend);
  }
  return backend;
}
