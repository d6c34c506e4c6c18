// Where every file lives: uploaded originals under input/, everything the pipeline makes under
// output/. Keys are relative POSIX paths such as "input/<videoId>/source.mp4".
import type { Readable } from 'node:stream';
import type { ContentDigest } from '../lib/content-digest.ts';

export interface StoredObject {
  size: number;
  contentType: string | undefined;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | Readable, contentType?: string): Promise<void>;
  /** A stream of the whole object or of the inclusive byte range [start, end]. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with prefix (a video's folder). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A path on local disk holding the object, for ffmpeg. Local storage answers its own file;
   * S3 downloads to a temp file. Call release() when done. With `digest`, also the SHA-256 and
   * size of the bytes: S3 hashes them on the way down, local storage reads its file once.
   */
  localPath(key: string, opts?: { digest?: boolean }): Promise<LocalCopy>;
}

export interface LocalCopy {
  path: string;
  release(): Promise<void>;
  /** Present when asked for. */
  digest?: ContentDigest;
}

/** Rejects keys that could leave the storage root. */
export function assertSafeKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
}
