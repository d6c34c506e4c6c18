// PPM images as ffmpeg writes them, parsed from chunks of any size.
import { expect, it } from 'vitest';
import { parsePpms, PpmReader } from './rgb-frames.ts';

const one = Buffer.concat([Buffer.from('P6\n2 1\n255\n'), Buffer.from([1, 2, 3, 4, 5, 6])]);
const two = Buffer.concat([Buffer.from('P6 1 1 255\n'), Buffer.from([7, 8, 9])]);
const pixels = (images: { width: number; height: number; data: Uint8Array }[]) =>
  images.map((i) => [i.width, i.height, [...i.data]]);

it('parses PPM images written one after the other', () => {
  expect(pixels(parsePpms(Buffer.concat([one, two])))).toEqual([
    [2, 1, [1, 2, 3, 4, 5, 6]],
    [1, 1, [7, 8, 9]],
  ]);
  expect(() => parsePpms(one.subarray(0, 14))).toThrow(/truncated/);
  expect(() => parsePpms(one.subarray(0, 5))).toThrow(/truncated/);
});

it('parses them from chunks of any size, headers and pixels split anywhere', () => {
  const all = Buffer.concat([one, two, one]);
  for (const size of [1, 2, 3, 7, 11]) {
    const reader = new PpmReader();
    const images = [];
    for (let at = 0; at < all.length; at += size) {
      images.push(...reader.push(all.subarray(at, at + size)));
    }
    reader.end();
    expect(pixels(images)).toEqual(pixels(parsePpms(all)));
  }
});
