// The scenes' JPEG frames decoded in-process give the pixels ffmpeg gives; a file that is missing
// or no JPEG fails with its name.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodePicture } from '../perception/picture.ts';
import { decodeJpegFile } from './jpeg-frames.ts';
import { resolveMediaTools } from './tools.ts';

const { ffmpeg } = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});
let dir = '';
const files: string[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-jpeg-frames-'));
  // Written as the analysis pass writes its candidates: full-range 4:2:0 JPEG, -q:v 4.
  execFileSync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i'],
    'testsrc2=size=640x360:rate=1:duration=4',
    ...['-vf', 'format=yuvj420p', '-q:v', '4', path.join(dir, 'f%02d.jpg')],
  ]);
  for (let n = 1; n <= 4; n++) files.push(path.join(dir, `f${String(n).padStart(2, '0')}.jpg`));
  execFileSync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=64x36'],
    ...['-frames:v', '1', path.join(dir, 'picture.png')],
  ]);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('gives the pixels ffmpeg gives', async () => {
  for (const file of files) {
    const image = await decodeJpegFile(file);
    const reference = await decodePicture(ffmpeg, file);
    expect([image.width, image.height]).toEqual([640, 360]);
    expect(image.data.length).toBe(reference.data.length);
    // The two decoders upsample the colour planes and round a little differently.
    let diff = 0;
    for (let i = 0; i < image.data.length; i++)
      diff += Math.abs(image.data[i]! - reference.data[i]!);
    expect(diff / image.data.length).toBeLessThan(2);
  }
});

it('fails with the file name for a missing file or one that is no JPEG', async () => {
  await expect(decodeJpegFile(path.join(dir, 'missing.jpg'))).rejects.toThrow(/missing\.jpg/);
  await expect(decodeJpegFile(path.join(dir, 'picture.png'))).rejects.toThrow(
    /Not a JPEG file.*picture\.png/,
  );
});
