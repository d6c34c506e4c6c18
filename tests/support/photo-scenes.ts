// People's photos as a video shows them (issue 43): each photo a scene of its own, a still that
// zooms slowly on a 960x540 frame, 420 px tall on black, 300 px tall off centre on a real
// photo's background, 120 px tall in a corner of it, or 420 px tall in heavily compressed H.264.
// Scenes are joined by hard cuts. Used by the face tests and by bench/face-video.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { AIRPLANE_PHOTO } from './face-photos.ts';

export const SHOTS = ['zoom', 'off-centre', 'small', 'compressed'] as const;
export type Shot = (typeof SHOTS)[number];

export interface PhotoScene {
  /** The photo's file. */
  photo: string;
  shot: Shot;
}

/** Each scene's length (s). */
export const SHOT_SECONDS = 4;
/** The video's width (px): the frames the analysis keeps (640 px) are smaller. */
export const VIDEO_WIDTH = 960;
const FPS = 25;
/** The photo's height on the 960x540 frame, and where its top left corner is (px). */
const PLACE: Record<Shot, { height: number; at?: [number, number] }> = {
  zoom: { height: 420 },
  'off-centre': { height: 300, at: [600, 60] },
  small: { height: 120, at: [700, 60] },
  compressed: { height: 420 },
};
/** x264's constant rate factor: 23 is its default, 38 shows blocks on faces. */
const CRF: Record<Shot, number> = { zoom: 23, 'off-centre': 23, small: 23, compressed: 38 };

const tools = () =>
  resolveMediaTools({ ffmpegPath: process.env.FFMPEG_PATH, ffprobePath: process.env.FFPROBE_PATH });
const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/** One scene: the shot, zooming in by 4 % a second (about 16 % over the scene). */
function shotArgs({ photo, shot }: PhotoScene, out: string): string[] {
  const still = (file: string) => ['-loop', '1', '-framerate', String(FPS), '-i', file];
  const { height, at } = PLACE[shot];
  const zoom =
    `zoompan=z='1+0.04*on/${FPS}':d=1:x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2'` +
    `:s=960x540:fps=${FPS}`;
  const inputs = at ? [...still(AIRPLANE_PHOTO), ...still(photo)] : still(photo);
  const graph = at
    ? `[0:v]scale=960:540,setsar=1[bg];[1:v]scale=-2:${height},setsar=1[p];` +
      `[bg][p]overlay=${at[0]}:${at[1]},${zoom},format=yuv420p[v]`
    : `[0:v]scale=-2:${height},pad=960:540:(ow-iw)/2:(oh-ih)/2,setsar=1,${zoom},format=yuv420p[v]`;
  return [
    ...QUIET,
    ...inputs,
    ...['-filter_complex', graph, '-map', '[v]', '-t', String(SHOT_SECONDS)],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(CRF[shot])],
    ...['-pix_fmt', 'yuv420p', out],
  ];
}

/** A photo fitted into a 640x360 frame as the scene cut stores them (JPEG), read back. */
export async function photoFrame(photo: string, out: string): Promise<Buffer> {
  const fit = 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2';
  await runProcess(tools().ffmpeg, [
    ...[...QUIET, '-i', photo, '-vf', `${fit},setsar=1,format=yuvj420p`],
    ...['-q:v', '3', out],
  ]);
  return fs.promises.readFile(out);
}

/** A 960x540 25 fps H.264 video of the scenes, in order, SHOT_SECONDS each. */
export async function makePhotoScenesVideo(scenes: PhotoScene[], out: string): Promise<string> {
  const { ffmpeg } = tools();
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-photo-scenes-'));
  try {
    const parts: string[] = [];
    for (const [i, scene] of scenes.entries()) {
      const part = path.join(dir, `${i}.mp4`);
      await runProcess(ffmpeg, shotArgs(scene, part));
      parts.push(part);
    }
    const list = path.join(dir, 'list.txt');
    await fs.promises.writeFile(list, parts.map((p) => `file '${p}'`).join('\n'));
    await runProcess(ffmpeg, [
      ...[...QUIET, '-f', 'concat', '-safe', '0', '-i', list],
      ...['-c', 'copy', '-movflags', '+faststart', out],
    ]);
    return out;
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
