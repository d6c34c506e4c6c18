import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import type { Storage } from './storage.ts';

export function createStorage(config: Config): Storage {
  if (config.storage === 's3') throw new Error('STORAGE=s3 is not available yet');
  return new LocalStorage(path.join(config.dataDir, 'files'));
}
