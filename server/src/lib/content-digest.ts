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

/**
 * Reads the file once to hash it: only where no earlier read of the bytes could do it. Read through
 * one handle into one buffer: a read stream per file cost twice the CPU on an import's thousands
 * of small files (1,000 files of 11 KB: 190-320 ms against 115-135).
 */
export async function digestFile(file: string): Promise<ContentDigest> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const hash = crypto.createHash('sha256');
    const { size: expected } = await handle.stat();
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(expected, 1024 * 1024)));
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
    }
    return { sha256: hash.digest('hex'), size };
  } finally {
    await handle.close();
  }
}
