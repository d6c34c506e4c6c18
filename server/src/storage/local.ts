// Local disk storage under DATA_DIR/files.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { digestFile } from '../lib/content-digest.ts';
import { assertSafeKey, type LocalCopy, type Storage, type StoredObject } from './storage.ts';

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
  '.vtt': 'text/vtt; charset=utf-8',
  '.json': 'application/json',
};

export function contentTypeOf(key: string): string | undefined {
  return TYPES[path.extname(key).toLowerCase()];
}

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  constructor(readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  /** The absolute file of a key (checked to stay inside the root). */
  file(key: string): string {
    assertSafeKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`unsafe storage key: ${key}`);
    return full;
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.part`;
    try {
      await pipeline(
        Buffer.isBuffer(body) ? Readable.from([body]) : body,
        fs.createWriteStream(tmp),
      );
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return fs.createReadStream(this.file(key), range);
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const st = await fs.promises.stat(this.file(key));
      return st.isFile() ? { size: st.size, contentType: contentTypeOf(key) } : undefined;
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.promises.rm(this.file(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  async localPath(key: string, opts: { digest?: boolean } = {}): Promise<LocalCopy> {
    const file = this.file(key);
    return {
      path: file,
      release: async () => undefined,
      ...(opts.digest ? { digest: await digestFile(file) } : {}),
    };
  }
}
