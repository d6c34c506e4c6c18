// RGB pixels from ffmpeg's binary PPM output (image2pipe), as the people images are decoded
// (perception/picture.ts). The scenes' own frames are JPEG files decoded in-process instead
// (jpeg-frames.ts).
import type { RgbImage } from '../analysis/local/ocr-image.ts';

const isSpace = (byte: number): boolean => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);

/** The header of a binary PPM image (P6, 8 bits) at the start of buf; null while incomplete. */
function ppmHeader(buf: Buffer): { width: number; height: number; bytes: number } | null {
  const fields: string[] = [];
  let pos = 0;
  while (fields.length < 4) {
    while (pos < buf.length && isSpace(buf[pos]!)) pos++;
    const start = pos;
    while (pos < buf.length && !isSpace(buf[pos]!)) pos++;
    // A field is complete only once the whitespace after it has arrived.
    if (pos >= buf.length) {
      if (buf.length > 64) throw new Error('unexpected image header');
      return null;
    }
    fields.push(buf.toString('latin1', start, pos));
  }
  const [magic, w, h, max] = fields;
  if (magic !== 'P6' || max !== '255') throw new Error(`unexpected image header ${magic}`);
  return { width: Number(w), height: Number(h), bytes: pos + 1 };
}

/** Binary PPM images one after the other, as ffmpeg's image2pipe writes them, in any chunks. */
export class PpmReader {
  private head: Buffer = Buffer.alloc(0);
  private image: RgbImage | undefined;
  private filled = 0;

  /** The images completed by this chunk (each in its own buffer). */
  push(chunk: Buffer): RgbImage[] {
    const out: RgbImage[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      if (!this.image) {
        const buf = this.head.length > 0 ? Buffer.concat([this.head, rest]) : rest;
        const header = ppmHeader(buf);
        if (!header) {
          this.head = Buffer.from(buf);
          break;
        }
        this.head = Buffer.alloc(0);
        const { width, height } = header;
        this.image = { width, height, data: new Uint8Array(width * height * 3) };
        this.filled = 0;
        rest = buf.subarray(header.bytes);
        continue;
      }
      const take = Math.min(this.image.data.length - this.filled, rest.length);
      this.image.data.set(rest.subarray(0, take), this.filled);
      this.filled += take;
      rest = rest.subarray(take);
      if (this.filled === this.image.data.length) {
        out.push(this.image);
        this.image = undefined;
      }
    }
    return out;
  }

  /** Fails when the input stopped inside an image. */
  end(): void {
    if (this.image) throw new Error('truncated PPM data');
    if (this.head.some((b) => !isSpace(b))) throw new Error('truncated PPM header');
  }
}

/** Binary PPM images one after the other in one buffer. */
export function parsePpms(buf: Buffer): RgbImage[] {
  const reader = new PpmReader();
  const images = reader.push(buf);
  reader.end();
  return images;
}
