import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import { createS3Client, S3Storage } from './s3.ts';
import type { Storage } from './storage.ts';
import type { UploadBackend, UploadDeps } from './uploads.ts';
import { LocalUploads } from './uploads-local.ts';
import { S3Uploads } from './uploads-s3.ts';

export function createStorage(config: Config): Storage {
  if (config.storage === 's3') return new S3Storage(createS3Client(config.s3), config.s3.bucket);
  return new LocalStorage(path.join(config.dataDir, 'files'));
}

const backends = new WeakMap<UploadDeps, UploadBackend>();

/** The direct-upload protocol of the storage driver, made once per application (context). */
export function uploadBackend(app: UploadDeps): UploadBackend {
  let backend = backends.get(app);
  if (!backend) {
    backend = app.storage.kind === 's3' ? new S3Uploads(app) : new LocalUploads(app);
    backends.set(app, backend);
  }
  return backend;
}
