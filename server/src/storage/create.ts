import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import type { Storage } from './storage.ts';
import type { UploadBackend, UploadDeps } from './uploads.ts';
import { LocalUploads } from './uploads-local.ts';
import type { S3Uploads } from './uploads-s3.ts';

/**
 * The S3 driver's upload protocol, loaded with the driver: the AWS SDK's modules (about 10 MB of
 * the server's memory) are imported only when STORAGE=s3 (issue 31, memory at rest).
 */
let s3Uploads: typeof S3Uploads | undefined;

export async function createStorage(config: Config): Promise<Storage> {
  if (config.storage === 's3') {
    const [{ createS3Client, S3Storage }, uploads] = await Promise.all([
      import('./s3.ts'),
      import('./uploads-s3.ts'),
    ]);
    s3Uploads = uploads.S3Uploads;
    return new S3Storage(createS3Client(config.s3), config.s3.bucket);
  }
  return new LocalStorage(path.join(config.dataDir, 'files'));
}

/** An S3 storage is made only by createStorage, which loaded the S3 upload protocol with it. */
function loadedS3Uploads(): typeof S3Uploads {
  if (!s3Uploads)
    throw new Error('The S3 upload protocol loads with the S3 storage (createStorage)');
  return s3Uploads;
}

const backends = new WeakMap<UploadDeps, UploadBackend>();

/** The direct-upload protocol of the storage driver, made once per application (context). */
export function uploadBackend(app: UploadDeps): UploadBackend {
  let backend = backends.get(app);
  if (!backend) {
    backend = app.storage.kind === 's3' ? new (loadedS3Uploads())(app) : new LocalUploads(app);
    backends.set(app, backend);
  }
  return backend;
}
