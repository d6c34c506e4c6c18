// The small face picture the People pages show: a square around the face box (with some hair and
// chin), scaled down and encoded as JPEG in this thread by MozJPEG's encoder compiled to
// WebAssembly (@jsquash/jpeg, its .wasm read from node_modules). An ffmpeg run per face would
// cost about 0.15 s of CPU just to start; this is a few milliseconds.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import encode, { init } from '@jsquash/jpeg/encode.js';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { FACE_CROP_PX } from '../limits.ts';

const require = createRequire(import.meta.url);

/** The square's side against the box's longer side. */
const AROUND = 1.4;
const QUALITY = 80;

let ready: Promise<void> | undefined;

function encoder(): Promise<void> {
  ready ??= (async () => {
    const file = require.resolve('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm');
    const wasmBinary = await fs.promises.readFile(file);
    // The package's typings leave out Emscripten's wasmBinary option, which its module honours.
    await init({ wasmBinary } as Parameters<typeof init>[0]);
  })().catch((err: unknown) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

/** The square of the picture around the box (x, y, w, h in px), kept inside the picture. */
export function cropSquare(
  image: { width: number; height: number },
  [x, y, w, h]: readonly number[],
): { x: number; y: number; side: number } {
  const side = Math.max(
    1,
    Math.min(Math.round(Math.max(w!, h!) * AROUND), image.width, image.height),
  );
  const clamp = (v: number, max: number): number => Math.max(0, Math.min(Math.round(v), max));
  return {
    x: clamp(x! + w! / 2 - side / 2, image.width - side),
    y: clamp(y! + h! / 2 - side / 2, image.height - side),
    side,
  };
}

/** A JPEG of the face in `box`, at most FACE_CROP_PX on a side. */
export async function faceCropJpeg(image: RgbImage, box: readonly number[]): Promise<Buffer> {
  await encoder();
  const { x, y, side } = cropSquare(image, box);
  const out = Math.min(side, FACE_CROP_PX);
  const rgba = new Uint8ClampedArray(out * out * 4);
  // Area average of the source pixels under each output pixel (a scale-down without aliasing).
  const scale = side / out;
  for (let oy = 0; oy < out; oy++) {
    const y0 = y + Math.floor(oy * scale);
    const y1 = Math.max(y0 + 1, y + Math.floor((oy + 1) * scale));
    for (let ox = 0; ox < out; ox++) {
      const x0 = x + Math.floor(ox * scale);
      const x1 = Math.max(x0 + 1, x + Math.floor((ox + 1) * scale));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const p = (sy * image.width + sx) * 3;
          r += image.data[p]!;
          g += image.data[p + 1]!;
          b += image.data[p + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const q = (oy * out + ox) * 4;
      rgba[q] = r / n;
      rgba[q + 1] = g / n;
      rgba[q + 2] = b / n;
      rgba[q + 3] = 255;
    }
  }
  const jpeg = await encode(
    { data: rgba, width: out, height: out, colorSpace: 'srgb' },
    { quality: QUALITY },
  );
  return Buffer.from(jpeg);
}
