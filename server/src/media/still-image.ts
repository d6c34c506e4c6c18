// What a still picture's first bytes say: its kind (by magic bytes, never by name) and, for a
// JPEG (APP1) or a PNG (eXIf chunk), the EXIF orientation a phone writes instead of turning the
// pixels.

export type PictureKind = 'jpg' | 'png' | 'svg';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The kind by the first bytes: JPEG SOI, the PNG signature, or XML text opening an svg. */
export function pictureKind(head: Buffer): PictureKind | undefined {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('<') && /<svg[\s>]/.test(text)) return 'svg';
  return undefined;
}

/** The Orientation tag (1-8) of a JPEG's EXIF block; 1 (upright) when there is none. */
export function exifOrientation(jpeg: Buffer): number {
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1]!;
    if (marker === 0xda || marker === 0xd9) break; // image data: no EXIF before it
    const length = jpeg.readUInt16BE(at + 2);
    if (marker === 0xe1 && jpeg.toString('latin1', at + 4, at + 10) === 'Exif\0\0') {
      return tiffOrientation(jpeg.subarray(at + 10, at + 2 + length));
    }
    at += 2 + length;
  }
  return 1;
}

/** The Orientation tag (1-8) of a PNG's eXIf chunk (a bare TIFF block); 1 when there is none. */
export function pngOrientation(png: Buffer): number {
  let at = PNG_SIGNATURE.length;
  while (at + 8 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'eXIf') return tiffOrientation(png.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length; // length, type, data, CRC
  }
  return 1;
}

/** The EXIF orientation of a picture of this kind (an SVG has none). */
export function pictureOrientation(kind: PictureKind, head: Buffer): number {
  if (kind === 'jpg') return exifOrientation(head);
  if (kind === 'png') return pngOrientation(head);
  return 1;
}

function tiffOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (i: number): number => (little ? tiff.readUInt16LE(i) : tiff.readUInt16BE(i));
  const u32 = (i: number): number => (little ? tiff.readUInt32LE(i) : tiff.readUInt32BE(i));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}
