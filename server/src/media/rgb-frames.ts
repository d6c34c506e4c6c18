// Still images (the scenes' stored frames) decoded to RGB pixels by as few ffmpeg runs as
// memory allows. A run costs about 0.2 s of CPU just to start (Debian's ffmpeg loads some 200
// libraries), more than decoding a dozen 640x360 JPEG frames, so one run decodes up to
// FILES_PER_RUN of them; its PPM output is read as a stream and ffmpeg is held (its pipe left
// full) while QUEUED_FRAMES wait for the caller, so memory does not grow with the run.
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { imageInputArgs, QUIET } from './args.ts';
import { runProcess } from './run.ts';

/** Inputs one run opens (each holds a demuxer and a decoder: a few hundred kB). */
export const FILES_PER_RUN = 64;
/** Decoded frames waiting for the caller before ffmpeg is held (640x360: 0.7 MB each). */
export const QUEUED_FRAMES = 4;

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

/** One run: the same-sized images of `files`, in order, as ffmpeg writes them. */
async function* oneRun(
  ffmpeg: string,
  files: string[],
  signal: AbortSignal | undefined,
): AsyncGenerator<RgbImage> {
  const inputs = files.flatMap((f) => imageInputArgs(f));
  const joined = files.map((_, i) => `[${i}:v]`).join('');
  const graph = `${joined}concat=n=${files.length}:v=1:a=0,format=rgb24[f]`;
  // Every frame out, even where two inputs carry the same timestamp.
  const output = ['-vsync', '0', '-c:v', 'ppm', '-f', 'image2pipe', 'pipe:1'];
  const args = [...QUIET, ...inputs, '-filter_complex', graph, '-map', '[f]', ...output];
  const reader = new PpmReader();
  const ready: RgbImage[] = [];
  let wake: (() => void) | undefined;
  let room: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  // Ends the run when the caller stops early (an error, or enough frames).
  const stop = new AbortController();
  const run = runProcess(ffmpeg, args, {
    signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
    // Held while the caller works: allow for its pace, not only for ffmpeg's.
    timeoutMs: 60_000 + files.length * 10_000,
    onStdout(chunk) {
      ready.push(...reader.push(chunk));
      wake?.();
      if (ready.length >= QUEUED_FRAMES) return new Promise<void>((resolve) => (room = resolve));
    },
  })
    .then(
      () => reader.end(),
      (err: unknown) => {
        failure = err;
      },
    )
    .catch((err: unknown) => {
      failure = err;
    })
    .finally(() => {
      ended = true;
      wake?.();
    });
  let count = 0;
  try {
    for (;;) {
      const image = ready.shift();
      if (image) {
        room?.();
        room = undefined;
        count++;
        yield image;
      } else if (ended) break;
      else await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (failure !== undefined) throw failure;
    if (count !== files.length) throw new Error(`decoded ${count} of ${files.length} frames`);
  } finally {
    if (!ended) {
      stop.abort(new Error('frames no longer needed'));
      room?.();
      await run;
    }
  }
}

/**
 * The images of `files` (one size: frames of one video), decoded in order, FILES_PER_RUN per
 * ffmpeg run. Stopping early ends the run in progress.
 */
export async function* decodeFrames(
  ffmpeg: string,
  files: readonly string[],
  signal?: AbortSignal,
): AsyncGenerator<RgbImage> {
  for (let at = 0; at < files.length; at += FILES_PER_RUN) {
    yield* oneRun(ffmpeg, files.slice(at, at + FILES_PER_RUN), signal);
  }
}
