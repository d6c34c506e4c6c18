// SHA-256 of a whole file, read slice by slice (a 5 GB video never sits in memory). Only asked for
// when the archive holds a video of the same size: see docs/decisions/duplicate-uploads-by-hash.md.
import { createSHA256 } from 'hash-wasm';

const SLICE_BYTES = 8 * 1024 * 1024;

export async function contentSha256(file: Blob): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
    const slice = file.slice(offset, Math.min(file.size, offset + SLICE_BYTES));
    hasher.update(new Uint8Array(await slice.arrayBuffer()));
  }
  return hasher.digest('hex');
}
