// jsdom's Blob, File and FormData do not survive fake-indexeddb's structured clone and cannot carry
// Node's Blobs; the queue tests use Node's own classes (the ones fetch uses) instead.
import { vi } from 'vitest';
import type { FileLike } from '../fingerprint.ts';

let NodeBlob: typeof Blob | undefined;

export async function useNodeBlobs(): Promise<void> {
  const blob = await new Response('x').blob();
  const form = await new Response(new URLSearchParams('a=1')).formData();
  NodeBlob = blob.constructor as typeof Blob;
  vi.stubGlobal('Blob', NodeBlob);
  vi.stubGlobal('FormData', form.constructor);
}

/** A file as the queue sees it: a Blob with a name and a last-modified time. */
export function makeFile(
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  lastModified: number,
  type = 'video/mp4',
): FileLike {
  if (!NodeBlob) throw new Error('call useNodeBlobs() first');
  const blob = new NodeBlob([bytes], { type });
  return Object.assign(blob, { name, lastModified }) as FileLike;
}

/** Deterministic pseudo-random bytes, so two files of one size differ where the test wants. */
export function bytesOf(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
