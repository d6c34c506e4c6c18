// A people picture decoded to RGB pixels through one bounded path (issue 28): its kind from its
// magic bytes forces ffmpeg's demuxer (args.ts pictureArgs), an SVG is rasterised at most
// PICTURE_MAX_SIDE a side whatever it declares, a JPEG or a PNG is turned upright by its EXIF
// orientation, and any picture's longer side is brought down to the same PICTURE_MAX_SIDE.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { PICTURE_MAX_SIDE } from '../limits.ts';
import { pictureArgs } from '../media/args.ts';
import { parsePpms } from '../media/rgb-frames.ts';
import { runProcess } from '../media/run.ts';
import { pictureKind, pictureOrientation } from '../media/still-image.ts';
import { boundSvgSize } from './svg-size.ts';

/** Header bytes read for the kind and the EXIF block (APP1 is at most 64 KB; a PNG's eXIf
 * chunk comes before its pixels). */
const HEAD_BYTES = 128 * 1024;

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function decodePicture(
  ffmpeg: string,
  file: string,
  signal?: AbortSignal,
): Promise<RgbImage> {
  const head = await readHead(file);
  const kind = pictureKind(head);
  if (!kind) throw new Error('the picture is not a JPEG, PNG or SVG');
  let input = file;
  let tmpDir: string | undefined;
  try {
    if (kind === 'svg') {
      tmpDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-svg-'));
      input = path.join(tmpDir, 'bounded.svg');
      const svg = await fs.promises.readFile(file, 'utf8');
      await fs.promises.writeFile(input, boundSvgSize(svg, PICTURE_MAX_SIDE));
    }
    const orientation = pictureOrientation(kind, head);
    const { stdout } = await runProcess(
      ffmpeg,
      pictureArgs(input, { kind, maxSide: PICTURE_MAX_SIDE, orientation }),
      { signal, timeoutMs: 60_000, maxStdoutBytes: PICTURE_MAX_SIDE * PICTURE_MAX_SIDE * 3 + 1024 },
    );
    const [image] = parsePpms(stdout);
    if (!image) throw new Error('the picture has no image');
    return image;
  } finally {
    if (tmpDir) await fs.promises.rm(tmpDir, { recursive: true, force: true });
  }
}
