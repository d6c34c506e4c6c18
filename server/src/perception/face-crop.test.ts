// The face crops the People pages show: a square around the face, inside the picture, small.
import { expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FACE_CROP_PX } from '../limits.ts';
import { decodeJpegFile } from '../media/jpeg-frames.ts';
import { cropSquare, faceCropJpeg } from './face-crop.ts';

it('takes a square around the face box, kept inside the picture', () => {
  const frame = { width: 640, height: 360 };
  // A 100 px face in the middle: a 140 px square centred on it.
  expect(cropSquare(frame, [270, 130, 100, 100])).toEqual({ x: 250, y: 110, side: 140 });
  // At the corner, the square moves in rather than leaving the picture.
  expect(cropSquare(frame, [0, 300, 80, 60])).toEqual({ x: 0, y: 248, side: 112 });
  // Larger than the picture's height: the picture's height.
  expect(cropSquare(frame, [100, 0, 400, 400]).side).toBe(360);
});

it('encodes a JPEG at most FACE_CROP_PX on a side, of the face’s colours', async () => {
  // A 640x360 grey frame with a red 200 px square where the face is.
  const width = 640;
  const height = 360;
  const data = new Uint8Array(width * height * 3).fill(128);
  for (let y = 80; y < 280; y++)
    for (let x = 220; x < 420; x++) data.set([220, 20, 20], (y * width + x) * 3);
  const jpeg = await faceCropJpeg({ width, height, data }, [250, 110, 140, 140]);
  expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'va-crop-')), 'face.jpg');
  fs.writeFileSync(file, jpeg);
  const image = await decodeJpegFile(file);
  fs.rmSync(path.dirname(file), { recursive: true });
  expect([image.width, image.height]).toEqual([FACE_CROP_PX, FACE_CROP_PX]);
  const centre = ((FACE_CROP_PX / 2) * FACE_CROP_PX + FACE_CROP_PX / 2) * 3;
  expect(image.data[centre]).toBeGreaterThan(180);
  expect(image.data[centre + 1]).toBeLessThan(70);
});
