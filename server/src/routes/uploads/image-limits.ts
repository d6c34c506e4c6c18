// The pixel size a PNG or JPEG declares, read from its header, and the limits on it: a small
// file can declare 30000 x 30000 pixels (a decompression bomb: 3.6 GB once decoded), so a
// picture is refused by what it declares before anything decodes it.

/** The message is shown to the uploader as it is: a sentence. */
export class ImageRejected extends Error {
  /** Own field: it crosses the image thread (thread-calls keeps fields) and marks the refusal. */
  readonly rejected = true;
}

/** An ImageRejected again after it crossed a thread as a plain Error with its fields. */
export function asImageRejected(err: unknown): unknown {
  const crossed = err instanceof Error && (err as { rejected?: unknown }).rejected === true;
  return crossed && !(err instanceof ImageRejected) ? new ImageRejected(err.message) : err;
}

/** 50 megapixels: an 8192 x 6144 photo (phones take up to 48 MP) decodes to 200 MB of RGBA. */
export const IMAGE_MAX_PIXELS = 50_000_000;
export const IMAGE_MAX_SIDE = 16_384;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR (the first chunk) or a JPEG's frame header (SOFn). */
export function declaredSize(buf: Buffer): { width: number; height: number } | undefined {
  if (buf.subarray(0, 8).equals(PNG_SIGNATURE)) {
    if (buf.length < 24 || buf.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (buf[0] !== 0xff || buf[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= buf.length) {
    if (buf[at] !== 0xff) return undefined;
    const marker = buf[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // no length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // image data before any frame
    const length = buf.readUInt16BE(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) {
      if (at + 9 > buf.length) return undefined;
      return { height: buf.readUInt16BE(at + 5), width: buf.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** Refuses a PNG or JPEG whose header cannot be read or declares too many pixels. */
export function checkRasterSize(buf: Buffer, what = 'The picture'): void {
  const size = declaredSize(buf);
  if (!size || size.width === 0 || size.height === 0) {
    throw new ImageRejected(`${what} is damaged: its size cannot be read.`);
  }
  if (
    size.width > IMAGE_MAX_SIDE ||
    size.height > IMAGE_MAX_SIDE ||
    size.width * size.height > IMAGE_MAX_PIXELS
  ) {
    throw new ImageRejected(
      `${what} is ${size.width} x ${size.height} pixels; at most ` +
        `${IMAGE_MAX_PIXELS / 1_000_000} megapixels and ${IMAGE_MAX_SIDE} pixels a side are accepted.`,
    );
  }
}

/** A PNG or JPEG inside an SVG (a data: URL) passes the same limits. */
export function checkEmbeddedImage(buf: Buffer): void {
  checkRasterSize(buf, 'A picture inside the SVG');
}
