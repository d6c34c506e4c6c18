// One short file of each kind that cameras, phones, editors and digitised tapes make, written by
// this machine's ffmpeg: DV from tape (NTSC 4:1:1 and PAL, interlaced, non-square pixels, PCM
// sound), MPEG-2 and HDV in QuickTime, ProRes 4:2:2 10-bit, Motion JPEG, MPEG-4 Part 2, HEVC
// (8-bit and 10-bit HDR), a phone's portrait video, anamorphic PAL, fragmented MP4, variable
// frame rate, and a stream that changes size midway. Each shows three pictures of two seconds
// (two hard cuts) and says the shape a player shows it at. Used by the format test
// (tests/integration/camera-formats.test.ts) and the format bench (bench/formats.ts).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runProcess } from '../../server/src/media/run.ts';

export interface CameraFormat {
  name: string;
  /** File name extension of the container. */
  ext: 'mov' | 'mp4' | 'mkv';
  /** Coded size and frame rate of the pictures. */
  width: number;
  height: number;
  rate: string;
  /** ffmpeg output options for the video (and sound) of this kind. */
  output: string[];
  /** Width / height as a player shows it (non-square pixels, rotation). */
  displayAspect: number;
  /** A filter applied to the pictures before encoding. */
  filter?: string;
  /** Options of a stream copy after encoding (the rotation is written only when copying). */
  remux?: string[];
  /** Adds a PCM or AAC sound track. */
  audio?: 'pcm' | 'aac';
  /** Another size for the last picture, in the same stream (see `changesSize`). */
  changesSize?: { width: number; height: number };
}

export const SCENE_SECONDS = 2;
export const SCENES = 3;
/** Where the two cuts are (ms). */
export const CUTS_MS = [SCENE_SECONDS * 1000, 2 * SCENE_SECONDS * 1000];

const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

export const CAMERA_FORMATS: readonly CameraFormat[] = [
  {
    name: 'DV NTSC in QuickTime (4:1:1, interlaced, 4:3)',
    ext: 'mov',
    width: 720,
    height: 480,
    rate: '30000/1001',
    output: [
      ...['-c:v', 'dvvideo', '-pix_fmt', 'yuv411p', '-aspect', '4:3'],
      ...['-flags', '+ilme+ildct', '-top', '0'],
    ],
    displayAspect: 4 / 3,
    audio: 'pcm',
  },
  {
    name: 'DV PAL in QuickTime (interlaced, 16:9)',
    ext: 'mov',
    width: 720,
    height: 576,
    rate: '25',
    output: [
      ...['-c:v', 'dvvideo', '-pix_fmt', 'yuv420p', '-aspect', '16:9'],
      ...['-flags', '+ilme+ildct', '-top', '0'],
    ],
    displayAspect: 16 / 9,
    audio: 'pcm',
  },
  {
    name: 'MPEG-2 in QuickTime (interlaced, 4:2:2, 16:9)',
    ext: 'mov',
    width: 720,
    height: 576,
    rate: '25',
    output: [
      ...['-c:v', 'mpeg2video', '-pix_fmt', 'yuv422p', '-b:v', '8M'],
      ...['-flags', '+ilme+ildct', '-top', '1', '-aspect', '16:9'],
    ],
    displayAspect: 16 / 9,
    audio: 'pcm',
  },
  {
    name: 'HDV-like MPEG-2 1440x1080 anamorphic',
    ext: 'mov',
    width: 1440,
    height: 1080,
    rate: '25',
    output: ['-c:v', 'mpeg2video', '-b:v', '15M', '-flags', '+ilme+ildct', '-aspect', '16:9'],
    displayAspect: 16 / 9,
  },
  {
    name: 'ProRes 422 HQ, 10-bit 4:2:2',
    ext: 'mov',
    width: 960,
    height: 540,
    rate: '25',
    output: ['-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le'],
    displayAspect: 16 / 9,
    audio: 'pcm',
  },
  {
    name: 'FFV1 4:1:1 in Matroska',
    ext: 'mkv',
    width: 640,
    height: 480,
    rate: '25',
    output: ['-c:v', 'ffv1', '-pix_fmt', 'yuv411p'],
    displayAspect: 4 / 3,
  },
  {
    name: 'Motion JPEG 4:2:2',
    ext: 'mov',
    width: 960,
    height: 540,
    rate: '25',
    output: ['-c:v', 'mjpeg', '-pix_fmt', 'yuvj422p', '-q:v', '4'],
    displayAspect: 16 / 9,
    audio: 'pcm',
  },
  {
    name: 'MPEG-4 Part 2',
    ext: 'mp4',
    width: 640,
    height: 480,
    rate: '25',
    output: ['-c:v', 'mpeg4', '-q:v', '4'],
    displayAspect: 4 / 3,
    audio: 'aac',
  },
  {
    name: 'HEVC 8-bit',
    ext: 'mp4',
    width: 960,
    height: 540,
    rate: '30',
    output: [
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-tag:v',
      'hvc1',
      '-pix_fmt',
      'yuv420p',
      '-x265-params',
      'log-level=error',
    ],
    displayAspect: 16 / 9,
    audio: 'aac',
  },
  {
    name: 'HEVC 10-bit HDR (PQ, BT.2020)',
    ext: 'mp4',
    width: 960,
    height: 540,
    rate: '30',
    output: [
      ...['-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hvc1', '-pix_fmt', 'yuv420p10le'],
      ...['-color_primaries', 'bt2020', '-color_trc', 'smpte2084', '-colorspace', 'bt2020nc'],
      ...['-x265-params', 'log-level=error:hdr10=1'],
    ],
    displayAspect: 16 / 9,
  },
  {
    name: 'Phone portrait (H.264 stored landscape, rotated 90°)',
    ext: 'mp4',
    width: 1280,
    height: 720,
    rate: '30',
    output: H264,
    remux: ['-metadata:s:v:0', 'rotate=90'],
    displayAspect: 720 / 1280,
    audio: 'aac',
  },
  {
    name: 'Anamorphic PAL H.264 (720x576, 16:9)',
    ext: 'mp4',
    width: 720,
    height: 576,
    rate: '25',
    output: [...H264, '-aspect', '16:9'],
    displayAspect: 16 / 9,
  },
  {
    name: 'Fragmented MP4',
    ext: 'mp4',
    width: 640,
    height: 360,
    rate: '25',
    output: [...H264, '-movflags', 'frag_keyframe+empty_moov+default_base_moof'],
    displayAspect: 16 / 9,
    audio: 'aac',
  },
  {
    name: 'Variable frame rate',
    ext: 'mp4',
    width: 640,
    height: 360,
    rate: '30',
    // Every third picture of the first two seconds and a run of others are dropped, and the
    // times kept as they were: gaps of 33 to 100 ms, as phones write when the light changes.
    filter: "select='not(lt(t,2)*eq(mod(n,3),1))*not(between(n,100,115))'",
    output: [...H264, '-fps_mode', 'vfr'],
    displayAspect: 16 / 9,
  },
  {
    name: 'A stream that changes size midway (640x360, then 1280x720)',
    ext: 'mp4',
    width: 640,
    height: 360,
    rate: '25',
    output: H264,
    displayAspect: 16 / 9,
    changesSize: { width: 1280, height: 720 },
  },
];

/** The three pictures at a size and rate, as one filter graph ending in [v]. */
function pictures(
  width: number,
  height: number,
  rate: string,
  filter?: string,
  from = 0,
  to = SCENES,
): string {
  const sources = ['testsrc2', 'smptebars', 'mandelbrot'];
  const parts = sources.slice(from, to).map((source, i) => {
    const size = `s=${width}x${height}:r=${rate}`;
    const graph =
      source === 'mandelbrot'
        ? `mandelbrot=${size},trim=duration=${SCENE_SECONDS}`
        : `${source}=${size}:d=${SCENE_SECONDS}`;
    return `${graph},setsar=1,format=yuv444p[p${i}]`;
  });
  const labels = parts.map((_, i) => `[p${i}]`).join('');
  return `${parts.join(';')};${labels}concat=n=${parts.length}:v=1:a=0${filter ? `,${filter}` : ''}[v]`;
}

async function encode(
  ffmpeg: string,
  kind: CameraFormat,
  file: string,
  graph: string,
  seconds: number,
): Promise<void> {
  const sound =
    kind.audio === undefined
      ? []
      : [
          ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
          ...(kind.audio === 'pcm' ? ['-c:a', 'pcm_s16le'] : ['-c:a', 'aac', '-b:a', '96k']),
          ...['-ac', '2'],
        ];
  await runProcess(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...sound.slice(0, 4),
    ...['-filter_complex', graph, '-map', '[v]'],
    ...(kind.audio ? ['-map', '0:a', ...sound.slice(4)] : []),
    ...kind.output,
    file,
  ]);
}

/** Made files are kept here by their kind's recipe: the test, the probe test and the bench share them. */
const CACHE_DIR = path.join(import.meta.dirname, '..', '..', '.tmp', 'camera-formats');

/** A maker's claim older than this is taken for a crashed run's and made again. */
const CLAIM_STALE_MS = 10 * 60_000;

/**
 * The file of one kind (made once, kept in .tmp/camera-formats/); answers its path. The format test
 * and the probe test run side by side on a fresh clone: one process makes each file while the other
 * waits for it (a claim directory per recipe), instead of both encoding all of them at once.
 */
export async function cameraFormatFile(ffmpeg: string, kind: CameraFormat): Promise<string> {
  const recipe = crypto.createHash('sha256').update(JSON.stringify(kind)).digest('hex');
  const file = path.join(CACHE_DIR, `${recipe.slice(0, 16)}.${kind.ext}`);
  const claim = path.join(CACHE_DIR, `${recipe.slice(0, 16)}.making`);
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  for (;;) {
    if (fs.existsSync(file)) return file;
    try {
      fs.mkdirSync(claim);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (fs.statSync(claim, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > CLAIM_STALE_MS) fs.rmSync(claim, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      // Made aside and renamed into place, so a test beside this one never reads half a file.
      fs.renameSync(await writeCameraFormat(ffmpeg, kind, claim), file);
    } finally {
      fs.rmSync(claim, { recursive: true, force: true });
    }
  }
}

/** Writes the file of one kind into `dir`; answers its path. */
async function writeCameraFormat(ffmpeg: string, kind: CameraFormat, dir: string): Promise<string> {
  const file = path.join(dir, `kind.${kind.ext}`);
  const seconds = SCENE_SECONDS * SCENES;
  if (kind.remux) {
    const encoded = path.join(dir, `encoded.${kind.ext}`);
    await encode(ffmpeg, kind, encoded, pictures(kind.width, kind.height, kind.rate), seconds);
    await runProcess(ffmpeg, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-i', encoded, '-c', 'copy'],
      ...kind.remux,
      file,
    ]);
    return file;
  }
  if (!kind.changesSize) {
    await encode(
      ffmpeg,
      kind,
      file,
      pictures(kind.width, kind.height, kind.rate, kind.filter),
      seconds,
    );
    return file;
  }
  // Two H.264 streams of different sizes joined as one (Annex B), then put in MP4 as they are:
  // the decoder meets the second size's parameter sets in the middle of the stream.
  const first = path.join(dir, 'first.h264');
  const second = path.join(dir, 'second.h264');
  const { width, height } = kind.changesSize;
  const head = {
    ...kind,
    audio: undefined,
    output: [...H264, '-bsf:v', 'h264_mp4toannexb', '-f', 'h264'],
  };
  await encode(
    ffmpeg,
    head,
    first,
    pictures(kind.width, kind.height, kind.rate, undefined, 0, 2),
    4,
  );
  await encode(ffmpeg, head, second, pictures(width, height, kind.rate, undefined, 2, 3), 2);
  const joined = path.join(dir, 'joined.h264');
  fs.writeFileSync(joined, Buffer.concat([fs.readFileSync(first), fs.readFileSync(second)]));
  await runProcess(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-r', kind.rate, '-f', 'h264', '-i', joined],
    ...['-c', 'copy', file],
  ]);
  return file;
}

/** Width and height of a picture the pipeline wrote (read by ffprobe). */
export function imageSize(ffprobe: string, file: string): { width: number; height: number } {
  const out = execFileSync(ffprobe, [
    ...['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file],
  ]).toString();
  const [width, height] = out.trim().split(',').map(Number);
  return { width: width!, height: height! };
}
