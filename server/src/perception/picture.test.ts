// People pictures decode through one bounded path: the demuxer forced from the magic bytes, SVGs
// rasterised at a bounded size whatever they declare, and phone photos turned upright by EXIF.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import {
  declaredSizeSvg,
  halvesPicture,
  pngWithTransportStream,
  withExifOrientation,
  withPngExifOrientation,
} from '../../../tests/support/hostile-files.ts';
import { PICTURE_MAX_SIDE } from '../limits.ts';
import { decodePicture } from './picture.ts';
import { boundSvgSize } from './svg-size.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-picture-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, body: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return file;
}

/** 'red', 'blue' or 'other' for the pixel at x, y. */
function colourAt(image: RgbImage, x: number, y: number): string {
  const at = (y * image.width + x) * 3;
  const [r, g, b] = [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
  if (r > 180 && g < 80 && b < 80) return 'red';
  if (b > 180 && r < 80 && g < 80) return 'blue';
  return `other(${r},${g},${b})`;
}

describe('people pictures', () => {
  it('turns a phone photo upright by its EXIF orientation', async () => {
    const jpeg = await halvesPicture(); // 64 x 32: red left, blue right
    const plain = await decodePicture('ffmpeg', write('plain.jpg', jpeg));
    expect([plain.width, plain.height]).toEqual([64, 32]);
    expect([colourAt(plain, 8, 16), colourAt(plain, 56, 16)]).toEqual(['red', 'blue']);
    // 6: the camera was turned clockwise; shown upright, its left edge is at the top.
    const six = await decodePicture('ffmpeg', write('six.jpg', withExifOrientation(jpeg, 6)));
    expect([six.width, six.height]).toEqual([32, 64]);
    expect([colourAt(six, 16, 8), colourAt(six, 16, 56)]).toEqual(['red', 'blue']);
    const eight = await decodePicture('ffmpeg', write('eight.jpg', withExifOrientation(jpeg, 8)));
    expect([eight.width, eight.height]).toEqual([32, 64]);
    expect([colourAt(eight, 16, 8), colourAt(eight, 16, 56)]).toEqual(['blue', 'red']);
    const three = await decodePicture('ffmpeg', write('three.jpg', withExifOrientation(jpeg, 3)));
    expect([colourAt(three, 8, 16), colourAt(three, 56, 16)]).toEqual(['blue', 'red']);
  });

  it('turns a PNG upright by the orientation in its eXIf chunk, as a JPEG', async () => {
    const png = await halvesPicture('png'); // 64 x 32: red left, blue right
    const plain = await decodePicture('ffmpeg', write('plain.png', png));
    expect([colourAt(plain, 8, 16), colourAt(plain, 56, 16)]).toEqual(['red', 'blue']);
    const six = await decodePicture('ffmpeg', write('six.png', withPngExifOrientation(png, 6)));
    expect([six.width, six.height]).toEqual([32, 64]);
    expect([colourAt(six, 16, 8), colourAt(six, 16, 56)]).toEqual(['red', 'blue']);
    const three = await decodePicture('ffmpeg', write('three.png', withPngExifOrientation(png, 3)));
    expect([colourAt(three, 8, 16), colourAt(three, 56, 16)]).toEqual(['blue', 'red']);
  });

  it('reads a PNG carrying an MPEG-TS stream as the PNG', async () => {
    const image = await decodePicture('ffmpeg', write('ts.png', await pngWithTransportStream()));
    expect([image.width, image.height]).toEqual([64, 48]);
  });

  it('rasterises an SVG declaring 16,000 px at 1,024 px at most, its drawing scaled', async () => {
    const svg = declaredSizeSvg(16_000);
    const bounded = boundSvgSize(svg, PICTURE_MAX_SIDE);
    expect(bounded).toMatch(/^<svg width="1024" height="1024" viewBox="0 0 16000 16000"/);
    const image = await decodePicture('ffmpeg', write('big.svg', svg));
    expect([image.width, image.height]).toEqual([1024, 1024]);
    // The dark circle drawn in the middle of the 16,000 px is in the middle of the picture.
    const mid = (512 * 1024 + 512) * 3;
    expect(image.data[mid]!).toBeLessThan(100);
  });

  it('bounds an SVG by its viewBox, its units or a default when it declares no size', () => {
    const size = (svg: string): string[] =>
      /^<svg width="(\d+)" height="(\d+)" viewBox="([^"]+)"/
        .exec(boundSvgSize(svg, 2048))!
        .slice(1);
    expect(size('<svg viewBox="0 0 30000 10000"><rect/></svg>')).toEqual([
      '2048',
      '683',
      '0 0 30000 10000',
    ]);
    expect(size('<svg width="100in" height="50in"/>')).toEqual(['2048', '1024', '0 0 9600 4800']);
    expect(size('<svg width="300" viewBox="0 0 2 1"/>')).toEqual(['300', '150', '0 0 2 1']);
    expect(size('<svg/>')).toEqual(['512', '512', '0 0 512 512']);
    expect(size('<svg width="200" height="100%"/>')).toEqual(['200', '200', '0 0 200 200']);
  });
});
