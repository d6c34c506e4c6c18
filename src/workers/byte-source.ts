// A file we can read by ranges: a Blob in the browser, a file handle in Node (bench).
// Reading through this interface is what keeps the probe from loading the whole file.

export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** Wraps a Blob (or File) and counts the bytes actually read. */
export function blobSource(blob: Blob): ByteSource & { bytesRead: () => number } {
  let bytesRead = 0;
  return {
    size: blob.size,
    async read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      const chunk = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
      bytesRead += chunk.byteLength;
      return chunk;
    },
    bytesRead: () => bytesRead,
  };
}
