// Recognising the same video when the user has to pick it again (needs-file): name, size and
// last-modified must match, and a SHA-256 over the first and last MiB guards against a different
// file that happens to share them. Hashing the edges reads 2 MiB, not the whole file.
import { FINGERPRINT_EDGE_BYTES } from '../config/upload-queue.ts';
import type { FileMeta } from './job-types.ts';

/** The parts of a File the queue needs; a plain Blob with these fields works in tests. */
export interface FileLike extends Blob {
  readonly name: string;
  readonly lastModified: number;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function edgeHash(file: Blob, edgeBytes = FINGERPRINT_EDGE_BYTES): Promise<string> {
  const head = file.slice(0, Math.min(edgeBytes, file.size));
  const tailStart = Math.max(edgeBytes, file.size - edgeBytes);
  const tail = file.slice(Math.min(tailStart, file.size), file.size);
  const bytes = new Uint8Array(head.size + tail.size);
  bytes.set(new Uint8Array(await head.arrayBuffer()), 0);
  bytes.set(new Uint8Array(await tail.arrayBuffer()), head.size);
  return toHex(await crypto.subtle.digest('SHA-256', bytes));
}

export async function describeFile(file: FileLike): Promise<FileMeta> {
  return {
    name: file.name,
    size: file.size,
    lastModified: file.lastModified,
    type: file.type,
    edgeHash: await edgeHash(file),
  };
}

export type FileMismatch = 'name' | 'size' | 'lastModified' | 'content';

/** undefined when the picked file is the one the job was queued with. */
export async function matchFile(
  expected: FileMeta,
  picked: FileLike,
): Promise<FileMismatch | undefined> {
  if (picked.name !== expected.name) return 'name';
  if (picked.size !== expected.size) return 'size';
  if (picked.lastModified !== expected.lastModified) return 'lastModified';
  if ((await edgeHash(picked)) !== expected.edgeHash) return 'content';
  return undefined;
}
