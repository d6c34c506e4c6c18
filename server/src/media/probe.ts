// What ffprobe tells about a file, reduced to the facts the pipeline uses. parseProbe is pure.
import { VIDEO_FORMATS, type VideoFormat } from './args.ts';
import { VIDEO_MAX_FPS, VIDEO_MAX_PIXEL_RATE, VIDEO_MAX_SIDE } from '../limits.ts';

export interface ProbeStream {
  index: number;
  type: 'video' | 'audio' | 'subtitle' | 'other';
  codec: string;
  language: string | undefined;
}

export interface ProbeResult {
  formatName: string;
  /** The whitelisted demuxer that read it: later runs force it with -f. */
  format: VideoFormat;
  durationMs: number;
  /** Displayed size (after rotation). */
  width: number | undefined;
  height: number | undefined;
  rotation: number;
  videoCodec: string | undefined;
  pixelFormat: string | undefined;
  frameRate: number | undefined;
  audioCodec: string | undefined;
  /** ISO date-time from the container or stream tags, when the camera wrote one. */
  creationDate: string | undefined;
  streams: ProbeStream[];
}

interface RawStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number | string }[];
}

interface RawProbe {
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
  streams?: RawStream[];
}

/** A still image or a text file probes as "no video stream": the upload is not a video. */
export class NotAVideoError extends Error {}

/** A video beyond the declared limits (limits.ts); the message is shown to the uploader. */
export class VideoOverLimitError extends NotAVideoError {}

const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * Refuses a picture size, frame rate or pixel rate no real video has: decoding 16,000 x 16,000
 * frames for hours would buy days of CPU and gigabytes of temporary frames.
 */
function checkVideoLimits(width: number, height: number, fps: number | undefined): void {
  if (width > VIDEO_MAX_SIDE || height > VIDEO_MAX_SIDE) {
    throw new VideoOverLimitError(
      `its picture is ${width} x ${height} pixels; at most ${VIDEO_MAX_SIDE} pixels a side are accepted`,
    );
  }
  if (fps === undefined) return;
  if (fps > VIDEO_MAX_FPS) {
    throw new VideoOverLimitError(
      `it has ${thousands(fps)} frames a second; at most ${VIDEO_MAX_FPS} are accepted`,
    );
  }
  if (width * height * fps > VIDEO_MAX_PIXEL_RATE) {
    throw new VideoOverLimitError(
      `its ${width} x ${height} picture at ${thousands(fps)} frames a second is more than ` +
        `${thousands(VIDEO_MAX_PIXEL_RATE / 1e6)} million pixels a second (8K at 30, 4K at 120)`,
    );
  }
}

/** The demuxer of ffprobe's format_name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"), if allowed. */
export function videoFormat(formatName: string): VideoFormat | undefined {
  const demuxer = formatName.split(',')[0];
  return VIDEO_FORMATS.find((f) => f === demuxer);
}

function ratio(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const [n, d] = text.split('/').map(Number);
  if (!n || !d || !Number.isFinite(n / d)) return undefined;
  return n / d;
}

function rotationOf(s: RawStream): number {
  const raw = s.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? s.tags?.rotate;
  const deg = Number(raw ?? 0);
  if (!Number.isFinite(deg)) return 0;
  return (((Math.round(deg) % 360) + 360) % 360) as number;
}

function tag(tags: Record<string, string> | undefined, name: string): string | undefined {
  if (!tags) return undefined;
  const key = Object.keys(tags).find((k) => k.toLowerCase() === name);
  return key ? tags[key] : undefined;
}

export function parseProbe(json: string): ProbeResult {
  let raw: RawProbe;
  try {
    raw = JSON.parse(json) as RawProbe;
  } catch {
    throw new NotAVideoError('ffprobe output is not JSON');
  }
  const streams = raw.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const formatName = raw.format?.format_name ?? '';
  // The probe runs with the same whitelist; this keeps a wider ffprobe run from slipping through.
  const format = videoFormat(formatName);
  if (!format) throw new NotAVideoError(`the container ${formatName || 'unknown'} is not accepted`);
  // A cover picture alone (attached_pic) is not a video either.
  if (!video) throw new NotAVideoError('no video stream');
  const durationSec = Number(raw.format?.duration ?? video.duration ?? NaN);
  if (!Number.isFinite(durationSec) || durationSec <= 0) throw new NotAVideoError('no duration');
  const frameRate = ratio(video.avg_frame_rate) ?? ratio(video.r_frame_rate);
  checkVideoLimits(video.width ?? 0, video.height ?? 0, frameRate);
  const rotation = rotationOf(video);
  const swap = rotation === 90 || rotation === 270;
  const created = tag(raw.format?.tags, 'creation_time') ?? tag(video.tags, 'creation_time');
  const createdDate = created && !Number.isNaN(Date.parse(created)) ? new Date(created) : undefined;
  return {
    formatName,
    format,
    durationMs: Math.round(durationSec * 1000),
    width: swap ? video.height : video.width,
    height: swap ? video.width : video.height,
    rotation,
    videoCodec: video.codec_name,
    pixelFormat: video.pix_fmt,
    frameRate,
    audioCodec: audio?.codec_name,
    creationDate: createdDate?.toISOString(),
    streams: streams.map((s) => ({
      index: s.index ?? 0,
      type:
        s.codec_type === 'video' || s.codec_type === 'audio' || s.codec_type === 'subtitle'
          ? s.codec_type
          : 'other',
      codec: s.codec_name ?? 'unknown',
      language: tag(s.tags, 'language'),
    })),
  };
}

const PLAYABLE_AUDIO = new Set(['aac', 'mp3']);

/**
 * Whether browsers play the original as is: H.264 in 8-bit 4:2:0 inside an MP4/MOV container,
 * with AAC or MP3 audio or none. Anything else gets an H.264/AAC rendition.
 */
export function isBrowserPlayable(p: ProbeResult): boolean {
  return (
    p.formatName.includes('mp4') &&
    p.videoCodec === 'h264' &&
    (p.pixelFormat === 'yuv420p' || p.pixelFormat === 'yuvj420p') &&
    (p.audioCodec === undefined || PLAYABLE_AUDIO.has(p.audioCodec))
  );
}

export function subtitleStreams(p: ProbeResult): ProbeStream[] {
  // Text subtitles only: bitmap ones (dvd, pgs) cannot become WebVTT.
  return p.streams.filter(
    (s) =>
      s.type === 'subtitle' &&
      ['mov_text', 'subrip', 'ass', 'ssa', 'webvtt', 'text'].includes(s.codec),
  );
}
