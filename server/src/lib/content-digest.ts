// The SHA-256 of a file's bytes, taken while they pass by for another reason (received, copied
// from S3), so that no one reads a file again only to hash it (issue 42,
// docs/decisions/content-hash.md).
import crypto from 'node:crypto';
import fs from 'node:fs';

export interface ContentDigest {
  /** Lower-case hex. */
  sha256: string;
  size: number;
}

/** A pass-through stage for stream.pipeline that hashes and counts what goes through it. */
export function digestTap(): {
  tap: (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>;
  digest(): ContentDigest;
} {
  const hash = crypto.createHash('sha256');
  let size = 0;
  let result: ContentDigest | undefined;
  return {
    async *tap(source) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    digest() {
      result ??= { sha256: hash.digest('hex'), size };
      return result;
    },
  };
}

/** Reads the file once to hash it: only where no earlier read of the bytes could do it. */
export async function digestFile(file: string): Promise<ContentDigest> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
