// Frames decoded to RGB as a stream: PPM images parsed from chunks of any size, the frames of
// many files in order across several ffmpeg runs, and a run ended when the caller stops early.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeFrames, FILES_PER_RUN, parsePpms, PpmReader } from './rgb-frames.ts';
import { resolveMediaTools } from './tools.ts';

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

const ffmpeg = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
}).ffmpeg;
let dir = '';
/** Frame n is a grey picture of level 2n + 10, so the order can be read back. */
const files: string[] = [];
const COUNT = FILES_PER_RUN + 6;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-rgb-frames-'));
  const levels = Array.from({ length: COUNT }, (_, n) => 2 * n + 10);
  const raw = Buffer.concat(levels.map((l) => Buffer.alloc(16 * 8, l)));
  execFileSync(
    ffmpeg,
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'gray'],
      ...['-s', '16x8', '-i', 'pipe:0', '-q:v', '1', path.join(dir, 'f%03d.png')],
    ],
    { input: raw },
  );
  for (let n = 1; n <= COUNT; n++) files.push(path.join(dir, `f${String(n).padStart(3, '0')}.png`));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('decodes the frames of many files in order, several ffmpeg runs after one another', async () => {
  const levels: number[] = [];
  for await (const image of decodeFrames(ffmpeg, files)) {
    expect([image.width, image.height]).toEqual([16, 8]);
    levels.push(image.data[0]!);
  }
  expect(levels).toEqual(Array.from({ length: COUNT }, (_, n) => 2 * n + 10));
});

it('ends the run in progress when the caller stops early', async () => {
  const seen: number[] = [];
  for await (const image of decodeFrames(ffmpeg, files)) {
    seen.push(image.data[0]!);
    if (seen.length === 3) break;
  }
  expect(seen).toEqual([10, 12, 14]);
  // A missing file fails the stream with ffmpeg's reason.
  const frames = decodeFrames(ffmpeg, [files[0]!, path.join(dir, 'missing.png')]);
  await expect(frames.next()).rejects.toThrow(/missing\.png|No such file/);
});
