// Pure ffmpeg/ffprobe argument builders: no I/O, unit-tested. Everything here works with the
// 2018 static ffmpeg 4.1 of @ffmpeg-installer as well as Debian's 5.x (no scdet, no xfade).

import { VIDEO_MAX_SIDE } from '../limits.ts';
import type { PictureKind } from './still-image.ts';

export const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error'];

/** A time for -ss/-t: seconds with milliseconds, never negative. */
export const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

/** The H.264 every output a browser plays is encoded with (renditions and trailers). */
export const H264_ARGS = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'];
/** Its stereo AAC sound. */
export const AAC_ARGS = ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];

/** An MP4 for browsers: no subtitle track, the index up front so playback starts at once. */
export function browserMp4Output(output: string): string[] {
  return ['-sn', '-movflags', '+faststart', '-f', 'mp4', output];
}

/**
 * Containers a video upload may be in, as ffmpeg demuxer names: the MP4/QuickTime family (the
 * specification's mp4, m4v and mov) and Matroska/WebM. Anything else (an HLS playlist, a concat
 * script, an image or an image sequence) is not a video, whatever its name.
 */
export const VIDEO_FORMATS = ['mov', 'matroska'] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/** Most pixels a decoded picture may have (ffmpeg's -max_pixels): the probe's side limit squared. */
export const DECODE_MAX_PIXELS = VIDEO_MAX_SIDE * VIDEO_MAX_SIDE;

/**
 * How every run opens a video: local files only (no network or nested protocols) and only the
 * whitelisted demuxers, so a playlist never opens the files it names. Later runs force the
 * demuxer the probe found (`format`) instead of guessing from the content again, and their
 * decoders refuse pictures larger than DECODE_MAX_PIXELS, should the frames be bigger than the
 * container told the probe. The probe itself goes without: given it, ffprobe reports an
 * over-size picture as 0 x 0, and the probe must see the size to refuse it in words.
 */
export function videoInputArgs(file: string, format?: VideoFormat): string[] {
  return [
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    VIDEO_FORMATS.join(','),
    ...(format ? ['-max_pixels', String(DECODE_MAX_PIXELS), '-f', format] : []),
    '-i',
    file,
  ];
}

/** How a run opens one still image the server wrote itself: one file, never a sequence. */
export function imageInputArgs(file: string): string[] {
  return ['-protocol_whitelist', 'file', '-f', 'image2', '-pattern_type', 'none', '-i', file];
}

/** The demuxer forced for each kind of still picture (checked by its magic bytes). */
const PICTURE_DEMUXERS: Record<PictureKind, string> = {
  jpg: 'jpeg_pipe',
  png: 'png_pipe',
  svg: 'svg_pipe',
};

/** The filters that turn a JPEG upright by its EXIF orientation (2-8; 1 is upright). */
const ORIENT: Record<number, string> = {
  2: 'hflip,',
  3: 'hflip,vflip,',
  4: 'vflip,',
  5: 'transpose=0,',
  6: 'transpose=1,',
  7: 'transpose=3,',
  8: 'transpose=2,',
};

/**
 * One people picture decoded to a PPM on stdout, its longer side at most maxSide: local file only,
 * the demuxer forced from the magic bytes (a PNG carrying an MPEG-TS payload is read as a PNG,
 * never probed as something else), and the EXIF orientation applied by hand (ffmpeg 4.1 ignores
 * it on stills, Debian's 5.1 applies it: -noautorotate makes both the same).
 */
export function pictureArgs(
  file: string,
  o: { kind: PictureKind; maxSide: number; orientation?: number },
): string[] {
  const demuxer = PICTURE_DEMUXERS[o.kind];
  const fit =
    `scale='if(gt(iw,ih),min(iw,${o.maxSide}),-2)':` + `'if(gt(iw,ih),-2,min(ih,${o.maxSide}))'`;
  return [
    ...QUIET,
    '-noautorotate',
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    demuxer,
    '-f',
    demuxer,
    '-i',
    file,
    '-frames:v',
    '1',
    '-vf',
    `${ORIENT[o.orientation ?? 1] ?? ''}${fit},format=rgb24`,
    '-c:v',
    'ppm',
    '-f',
    'image2pipe',
    'pipe:1',
  ];
}

export function probeArgs(input: string): string[] {
  return [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    ...videoInputArgs(input),
  ];
}

/** Size of the small raw frames the analysis pass measures (scene changes, colours, motion). */
export const STATS_WIDTH = 64;
export const STATS_HEIGHT = 36;

export interface AnalysisPassOptions {
  /** Samples per second for measurement. */
  statsFps: number;
  /** Candidate frame images per second, written as JPEG files. */
  gridFps: number;
  /** Widest candidate image (never upscaled). */
  frameMaxWidth: number;
  /** printf-style pattern for the candidate images, e.g. /tmp/x/f%06d.jpg. */
  framePattern: string;
  /** The container the probe found. */
  format: VideoFormat;
  /** Decode only the pictures other pictures are predicted from (`-skip_frame noref`). */
  referenceOnly: boolean;
  /** Receives COUNT_BYTES per decoded picture, so the caller can tell how many there were. */
  countFile: string;
}

/** Bytes a decoded picture adds to the count file (a 2x2 grey crop). */
export const COUNT_BYTES = 4;

/**
 * The count's 2x2 grey corner, taken as any picture comes: a 2-pixel crop of a picture whose
 * colour is stored at a quarter of its width (DV NTSC's 4:1:1) has no colour column left and
 * fails the filter graph, so a 16x16 corner (every chroma layout fits it) is made grey first.
 */
const COUNT_CROP = "crop='min(iw,16)':'min(ih,16)':0:0,format=gray,crop=2:2:0:0";

/**
 * Scales to square pixels at most `maxWidth` wide (never up): a picture stored with non-square
 * pixels (DV, anamorphic PAL, HDV's 1440x1080) is shown at its display shape, as players show it.
 * The expressions are evaluated again when the stream changes size or shape midway.
 */
function squarePixels(maxWidth: number): string {
  const width = `min(${maxWidth},iw*sar)`;
  return `scale=w='trunc(${width}/2)*2':h='trunc(${width}*ih/(iw*sar)/2)*2',setsar=1`;
}

/**
 * One decode of the video feeding two outputs: tiny RGB frames on stdout for measurement and
 * candidate frame images on disk. Timestamps start at zero, so sample k is at k / fps seconds.
 * A third output counts the decoded pictures (a 2x2 corner: no scaling).
 *
 * With referenceOnly, the decoder skips the pictures no other picture refers to: in H.264 and
 * HEVC with B-frames about half of them (the bench's 720p video: 1,904 of 3,600 decoded, at 58 %
 * of a full decode's CPU). Every picture kept is decoded in full (loop filter included), so the
 * images are as sharp as before (the skipped B-frames are the encoder's most compressed); each
 * sample is the decoded picture nearest its tick, a frame or two away at most.
 */
export function analysisPassArgs(input: string, o: AnalysisPassOptions): string[] {
  const graph =
    `[0:v:0]setpts=PTS-STARTPTS,split=3[m][g][c];` +
    `[m]fps=${o.statsFps},scale=${STATS_WIDTH}:${STATS_HEIGHT}:flags=area,format=rgb24[stats];` +
    `[g]fps=${o.gridFps},${squarePixels(o.frameMaxWidth)},format=yuvj420p[frames];` +
    `[c]${COUNT_CROP}[count]`;
  return [
    ...QUIET,
    // One decoding thread: ffmpeg's frame threads cost about 15 % more CPU for the same
    // pictures, and this run leaves the other core to the models loading meanwhile.
    '-threads',
    '1',
    // Each decoded picture written once to the count (the default repeats pictures to a constant
    // rate; the other two outputs are made constant-rate by their fps filters).
    '-vsync',
    'passthrough',
    ...(o.referenceOnly ? ['-skip_frame', 'noref'] : []),
    // A stream that changes size midway (a phone switching resolution, joined recordings) keeps
    // its filter graph: rebuilt, the graph's setpts would take the change as the new start and
    // send times backwards. The scale filters take each picture's size as it comes.
    '-reinit_filter',
    '0',
    ...videoInputArgs(input, o.format),
    '-filter_complex',
    graph,
    '-map',
    '[stats]',
    '-f',
    'rawvideo',
    'pipe:1',
    '-map',
    '[count]',
    '-f',
    'rawvideo',
    o.countFile,
    '-map',
    '[frames]',
    '-q:v',
    '4',
    '-f',
    'image2',
    o.framePattern,
  ];
}

/** H.264/AAC MP4 with the index up front, for browsers; no larger than maxHeight lines. */
export function renditionArgs(
  input: string,
  output: string,
  o: { hasAudio: boolean; maxHeight: number; format: VideoFormat },
): string[] {
  return [
    ...QUIET,
    '-y',
    ...videoInputArgs(input, o.format),
    '-map',
    '0:v:0',
    ...(o.hasAudio ? ['-map', '0:a:0'] : []),
    '-vf',
    `scale=-2:'min(${o.maxHeight},ih)',format=yuv420p`,
    ...H264_ARGS,
    ...(o.hasAudio ? AAC_ARGS : []),
    ...browserMp4Output(output),
  ];
}

/** One scene clip: its span of the video and the file it is written to. */
export interface ClipCut {
  startMs: number;
  endMs: number;
  output: string;
}

/**
 * Scene clips cut without re-encoding, all by one ffmpeg run (a run costs about 0.2 s of CPU just
 * to start, more than the copy of a clip): the video is opened once per clip, each input seeks to
 * the keyframe at or before its clip's start, and the MP4 edit list makes players begin at the
 * scene start (ffmpeg and Chromium honour it). The pictures before the scene start keep their
 * negative times for that: shifting them to zero (`-avoid_negative_ts make_zero`) dropped the
 * edit list, and a 3 s scene 3 s after a keyframe played for 6 s from the scene before. The
 * files are the same bytes as one run per clip would write. Costs a file copy, not a decode.
 */
export function clipsArgs(
  input: string,
  clips: readonly ClipCut[],
  o: { hasAudio: boolean; format: VideoFormat },
): string[] {
  const inputs = clips.flatMap((c) => [
    '-ss',
    seconds(c.startMs),
    ...videoInputArgs(input, o.format),
  ]);
  const outputs = clips.flatMap((c, i) => [
    '-t',
    seconds(c.endMs - c.startMs),
    '-map',
    `${i}:v:0`,
    ...(o.hasAudio ? ['-map', `${i}:a:0`] : []),
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    c.output,
  ]);
  return [...QUIET, '-y', ...inputs, ...outputs];
}

/** One subtitle stream (by its absolute index) as WebVTT on stdout. */
export function subtitleArgs(input: string, streamIndex: number, format: VideoFormat): string[] {
  return [
    ...QUIET,
    ...videoInputArgs(input, format),
    '-map',
    `0:${streamIndex}`,
    '-c:s',
    'webvtt',
    '-f',
    'webvtt',
    'pipe:1',
  ];
}

/** Mono 16 kHz speech audio, small enough for transcription endpoints (about 14 MB per hour). */
export function speechAudioArgs(input: string, output: string, format: VideoFormat): string[] {
  return [
    ...QUIET,
    '-y',
    ...videoInputArgs(input, format),
    '-map',
    '0:a:0',
    '-vn',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '32k',
    '-f',
    'mp3',
    output,
  ];
}

/** A plain full decode with nothing written: the yardstick of the throughput bench. */
export function decodeArgs(input: string, format?: VideoFormat): string[] {
  return [...QUIET, ...videoInputArgs(input, format), '-map', '0:v:0', '-f', 'null', '-'];
}
