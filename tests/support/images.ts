// Real pictures for upload tests: PNGs built byte by byte (any declared size, so a
// decompression bomb too) and JPEGs made by ffmpeg.
import zlib from 'node:zlib';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';

/** A PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A grey 8-bit PNG declaring width x height, its rows all black. With `rows` only the first rows
 * carry data: a decompression bomb declares 30000 x 30000 (900 MB decoded) in a tiny file.
 */
export function pngImage(width: number, height: number, rows = height): Buffer {
  const data = zlib.deflateSync(Buffer.alloc((width + 1) * rows)); // a filter byte per row
  return greyPng(width, height, [pngChunk('IDAT', data)]);
}

/** A grey 8-bit PNG declaring width x height, with `chunks` between its IHDR and IEND. */
export function greyPng(width: number, height: number, chunks: Buffer[]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8 bits, greyscale, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...chunks,
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small real JPEG of one colour. */
export async function jpegImage(colour = 'red', size = '64x48'): Promise<Buffer> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const { stdout } = await runProcess(ffmpeg, [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', `color=c=${colour}:size=${size}`, '-frames:v', '1'],
    ...['-c:v', 'mjpeg', '-f', 'image2pipe', 'pipe:1'],
  ]);
  return stdout;
}
