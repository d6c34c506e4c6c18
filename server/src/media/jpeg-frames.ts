// The scenes' frame images (JPEG files the analysis pass wrote) decoded to RGB pixels in this
// thread, by MozJPEG's decoder compiled to WebAssembly (@jsquash/jpeg; its .wasm ships in the
// package and is read from node_modules). About 3 ms of CPU a 640x360 frame here. They were
// decoded by ffmpeg runs before: each run cost about 0.15 s of CPU just to start (Debian's ffmpeg
// loads some 200 libraries) and its frames came through a pipe, so frames were decoded in
// batches, ahead of need; now each frame is decoded when it is wanted, and only if it is.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import decode, { init } from '@jsquash/jpeg/decode.js';
import type { RgbImage } from '../analysis/local/ocr-image.ts';

const require = createRequire(import.meta.url);

let ready: Promise<void> | undefined;
/** What the decoder last printed: libjpeg says there why a file is not decoded. */
let said = '';

/** Compiles the decoder once per thread (from the package's own .wasm: no fetch, no network). */
function decoder(): Promise<void> {
  ready ??= (async () => {
    const file = require.resolve('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm');
    const wasmBinary = await fs.promises.readFile(file);
    const printErr = (message: string): void => {
      said = message;
    };
    // The package's typings leave out Emscripten's wasmBinary and printErr options, which its
    // module honours.
    await init({ wasmBinary, printErr, print: printErr } as Parameters<typeof init>[0]);
  })().catch((err: unknown) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

/** The RGB pixels of one JPEG file. */
export async function decodeJpegFile(file: string): Promise<RgbImage> {
  const [data] = await Promise.all([fs.promises.readFile(file), decoder()]);
  let rgba: { width: number; height: number; data: Uint8ClampedArray };
  said = '';
  try {
    rgba = await decode(new Uint8Array(data).buffer);
  } catch (err) {
    throw new Error(`frame image not decoded (${said || 'not a JPEG'}): ${file}`, { cause: err });
  }
  // RGBA to RGB in the decoder's own array (each pixel moves to a place at or before its own), so
  // a frame leaves one array behind, not two: an hour's OCR decodes a thousand frames, and the
  // allocator holds on to what the collector has not freed yet (pass 5 of the analysis budget).
  const { width, height } = rgba;
  const rgb = new Uint8Array(rgba.data.buffer, rgba.data.byteOffset, width * height * 3);
  const src = rgba.data;
  for (let p = 0, q = 0; q < rgb.length; p += 4, q += 3) {
    rgb[q] = src[p]!;
    rgb[q + 1] = src[p + 1]!;
    rgb[q + 2] = src[p + 2]!;
  }
  return { width, height, data: rgb };
}
