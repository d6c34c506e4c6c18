// A picture of any size (a person's photo) decoded to RGB pixels, its longer side brought down
// to MAX_SIDE: enough for a face to be described, and a 40-megapixel photo stays small.
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { parsePpms } from '../media/rgb-frames.ts';
import { runProcess } from '../media/run.ts';

export const MAX_SIDE = 1024;

export async function decodePicture(
  ffmpeg: string,
  file: string,
  signal?: AbortSignal,
): Promise<RgbImage> {
  const fit = `scale='if(gt(iw,ih),min(iw,${MAX_SIDE}),-2)':'if(gt(iw,ih),-2,min(ih,${MAX_SIDE}))'`;
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', file];
  args.push('-frames:v', '1', '-vf', `${fit},format=rgb24`, '-c:v', 'ppm', '-f', 'image2pipe');
  const { stdout } = await runProcess(ffmpeg, [...args, 'pipe:1'], {
    signal,
    timeoutMs: 60_000,
    maxStdoutBytes: MAX_SIDE * MAX_SIDE * 3 + 1024,
  });
  const [image] = parsePpms(stdout);
  if (!image) throw new Error('the picture has no image');
  return image;
}
