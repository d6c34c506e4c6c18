import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import { createS3Client, S3Storage } from './s3.ts';
import type { Storage } from './storage.ts';

export function createStorage(config: Config): Storage {
  if (config.storage === 's3') return new S3Storage(createS3Client(config.s3), config.s3.bucket);
  return new LocalStorage(path.join(config.dataDir, 'files'));
}
