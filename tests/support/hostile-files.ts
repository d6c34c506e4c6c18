// The hostile files of issue 28, generated small: a Matroska video (named .mov) whose ASS track
// holds lines of 150,000 "<", SVGs of escaped quotes that grow when sanitised, an SVG declaring
// 16,000 x 16,000 px with a blur, a PNG carrying an MPEG-TS stream in a private chunk, a video
// over the size limit, and a JPEG carrying an EXIF orientation. Shared by the tests and
// bench/hostile.ts; the videos are cached in the temp folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { greyPng, pngChunk } from './images.ts';

const cacheDir = path.join(os.tmpdir(), 'va-test-media', 'hostile');

const ffmpeg = (): string =>
  resolveMediaTools({ ffmpegPath: process.env.FFMPEG_PATH, ffprobePath: process.env.FFPROBE_PATH })
    .ffmpeg;

async function cached(name: string, make: (file: string) => Promise<void>): Promise<string> {
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, name);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp${path.extname(name)}`;
    await make(tmp);
    fs.renameSync(tmp, file);
  }
  return file;
}

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/** An 8 s Matroska video (its file named .mov) with an ASS track of `lines` lines of `<`. */
export function angleFloodVideo(lines = 3, chars = 150_000): Promise<string> {
  return cached(`angle-flood-${lines}-${chars}.mov`, async (file) => {
    const ass = `${file}.ass`;
    const events = Array.from(
      { length: lines },
      (_, i) =>
        `Dialogue: 0,0:00:0${i * 2}.00,0:00:0${i * 2 + 1}.50,Default,,0,0,0,,${'<'.repeat(chars)}`,
    );
    fs.writeFileSync(
      ass,
      [
        '[Script Info]',
        'ScriptType: v4.00+',
        '',
        '[V4+ Styles]',
        'Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment',
        'Style: Default,Arial,20,&H00FFFFFF,0,0,2',
        '',
        '[Events]',
        'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
        ...events,
        '',
      ].join('\n'),
    );
    await runProcess(ffmpeg(), [
      ...QUIET,
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=8'],
      ...['-i', ass, '-map', '0:v', '-map', '1:s'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:s', 'ass', '-f', 'matroska', file],
    ]);
    fs.rmSync(ass, { force: true });
  });
}

/** A 1 s Matroska video of `width` x `height` (MJPEG: any size, cheap to write). */
export function oversizeVideo(width = 16_000, height = 16_000): Promise<string> {
  return cached(`oversize-${width}x${height}.mkv`, async (file) => {
    await runProcess(ffmpeg(), [
      ...QUIET,
      ...['-f', 'lavfi', '-i', `color=black:size=${width}x${height}:rate=1:duration=2`],
      ...['-c:v', 'mjpeg', '-q:v', '31', '-f', 'matroska', file],
    ]);
  });
}

/** An SVG of `bytes` whose text is all `'`: each became `&#39;` when sanitised (5x). */
export function quoteSvg(bytes = 9 * 1024 * 1024): string {
  const open = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>';
  const close = '</text></svg>';
  return open + "'".repeat(bytes - open.length - close.length) + close;
}

/** A 400-byte SVG declaring `side` x `side` px, drawn with a blur over the whole of it. */
export function declaredSizeSvg(side = 16_000): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">` +
    '<filter id="b"><feGaussianBlur stdDeviation="40"/></filter>' +
    `<rect width="${side}" height="${side}" fill="#c96" filter="url(#b)"/>` +
    `<circle cx="${side / 2}" cy="${side / 2}" r="${side / 4}" fill="#333" filter="url(#b)"/></svg>`
  );
}

/** A 64 x 48 grey PNG with an MPEG-TS video (320 x 240) in a private chunk before its pixels. */
export async function pngWithTransportStream(): Promise<Buffer> {
  const ts = await cached('payload.ts', async (file) => {
    await runProcess(ffmpeg(), [
      ...QUIET,
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2'],
      ...['-c:v', 'mpeg2video', '-f', 'mpegts', file],
    ]);
  });
  return greyPng(64, 48, [
    pngChunk('prVt', fs.readFileSync(ts)),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(65 * 48, 0x80))),
  ]);
}

/** A big-endian TIFF block whose one tag is Orientation = `orientation`. */
function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  return tiff;
}

/** The JPEG with an EXIF block (APP1, big-endian TIFF) whose Orientation tag is `orientation`. */
export function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), orientationTiff(orientation)]);
  const marker = Buffer.from([0xff, 0xe1, 0, 0]);
  marker.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), marker, body, jpeg.subarray(2)]);
}

/** The PNG with an eXIf chunk (a bare TIFF block) right after IHDR, Orientation `orientation`. */
export function withPngExifOrientation(png: Buffer, orientation: number): Buffer {
  const afterHeader = 8 + 12 + png.readUInt32BE(8); // signature, then IHDR's length, type, CRC
  return Buffer.concat([
    png.subarray(0, afterHeader),
    pngChunk('eXIf', orientationTiff(orientation)),
    png.subarray(afterHeader),
  ]);
}

/** A 64 x 32 JPEG (or PNG) as a camera stores it: the left half red, the right half blue. */
export async function halvesPicture(codec: 'mjpeg' | 'png' = 'mjpeg'): Promise<Buffer> {
  const { stdout } = await runProcess(ffmpeg(), [
    ...QUIET,
    '-f',
    'lavfi',
    '-i',
    'color=red:size=64x32,drawbox=x=32:y=0:w=32:h=32:color=blue:t=fill',
    ...['-frames:v', '1', '-c:v', codec, '-f', 'image2pipe', 'pipe:1'],
  ]);
  return stdout;
}
