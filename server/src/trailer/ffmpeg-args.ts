// Pure ffmpeg argument builders for the trailer: no I/O, unit-tested. Each piece is read with its
// own input seek (-ss/-t before -i), so only the chosen spans of a long video are decoded.
// With xfade (ffmpeg 4.3+) pieces cross-dissolve into each other; older builds (the npm 4.1)
// fade each piece out and in and join them with concat.
import { videoInputArgs, type VideoFormat } from '../media/args.ts';
import type { Segment } from './plan.ts';

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
const AUDIO_RATE = 48_000;

export interface TrailerFormat {
  /** Output picture size (even numbers). */
  width: number;
  height: number;
  fps: number;
  /** Whether the source has an audio track; without one a silent track is made. */
  hasAudio: boolean;
  /** Cross-dissolve length (ms); shortened for very short pieces. */
  fadeMs: number;
  /** Use xfade/acrossfade (ffmpeg 4.3+); otherwise fade out/in and concat. */
  xfade: boolean;
  /** The source's container, as the probe found it (forced on every input). */
  container: VideoFormat;
}

const sec = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

/** The source's displayed size scaled down to maxHeight lines, as even numbers. */
export function fitSize(
  width: number | undefined,
  height: number | undefined,
  maxHeight: number,
): { width: number; height: number } {
  if (!width || !height) return { width: 640, height: 360 };
  const scale = Math.min(1, maxHeight / height);
  const even = (n: number): number => Math.max(2, 2 * Math.round((n * scale) / 2));
  return { width: even(width), height: even(height) };
}

/** A frame rate xfade and browsers handle: the source's, within 1..60, else 25. */
export function trailerFps(frameRate: number | undefined): number {
  if (!frameRate || !Number.isFinite(frameRate)) return 25;
  return Math.round(Math.min(60, Math.max(1, frameRate)) * 1000) / 1000;
}

/** The fade length that fits the shortest piece (at most a quarter of it). */
export function fadeLength(segments: readonly Segment[], fadeMs: number): number {
  const shortest = Math.min(...segments.map((s) => s.endMs - s.startMs));
  return Math.max(0, Math.min(fadeMs, Math.floor(shortest / 4)));
}

/** Length of the finished trailer (ms): cross-dissolves overlap neighbouring pieces. */
export function trailerLength(segments: readonly Segment[], f: TrailerFormat): number {
  const sum = segments.reduce((t, s) => t + (s.endMs - s.startMs), 0);
  const fade = fadeLength(segments, f.fadeMs);
  return f.xfade ? sum - fade * Math.max(0, segments.length - 1) : sum;
}

function pieceFilters(
  i: number,
  seg: Segment,
  f: TrailerFormat,
  fade: number,
  last: boolean,
): string[] {
  const d = sec(seg.endMs - seg.startMs);
  const length = seg.endMs - seg.startMs;
  const { width: w, height: h } = f;
  // The first piece fades in from black and the last fades out; in concat mode every piece does.
  const fadeIn = (i === 0 || !f.xfade) && fade > 0;
  const fadeOut = (last || !f.xfade) && fade > 0;
  const vFades =
    (fadeIn ? `,fade=t=in:st=0:d=${sec(fade)}` : '') +
    (fadeOut ? `,fade=t=out:st=${sec(length - fade)}:d=${sec(fade)}` : '');
  const aFades =
    (fadeIn ? `,afade=t=in:st=0:d=${sec(fade)}` : '') +
    (fadeOut ? `,afade=t=out:st=${sec(length - fade)}:d=${sec(fade)}` : '');
  // xfade needs every piece exactly as long as planned: pad a short read with its last frame.
  const hold = f.xfade ? ',tpad=stop_mode=clone:stop_duration=1' : '';
  const video =
    `[${i}:v:0]fps=${f.fps},scale=${w}:${h}:force_original_aspect_ratio=decrease,` +
    `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p${hold},` +
    `trim=duration=${d},setpts=PTS-STARTPTS${vFades}[v${i}]`;
  const audioIn = f.hasAudio
    ? `[${i}:a:0]aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,apad,`
    : `anullsrc=r=${AUDIO_RATE}:cl=stereo,`;
  const audio = `${audioIn}atrim=duration=${d},asetpts=PTS-STARTPTS${aFades}[a${i}]`;
  return [video, audio];
}

/** The filter graph joining the pieces into [vout] and [aout]. */
export function trailerGraph(segments: readonly Segment[], f: TrailerFormat): string {
  if (segments.length === 0) throw new Error('a trailer needs at least one piece');
  const fade = fadeLength(segments, f.fadeMs);
  const parts = segments.flatMap((s, i) => pieceFilters(i, s, f, fade, i === segments.length - 1));
  const n = segments.length;
  if (n === 1) {
    parts.push('[v0]null[vout]', '[a0]anull[aout]');
  } else if (f.xfade && fade > 0) {
    let v = 'v0';
    let a = 'a0';
    let length = segments[0]!.endMs - segments[0]!.startMs;
    for (let i = 1; i < n; i++) {
      const vo = i === n - 1 ? 'vout' : `vx${i}`;
      const ao = i === n - 1 ? 'aout' : `ax${i}`;
      parts.push(
        `[${v}][v${i}]xfade=transition=fade:duration=${sec(fade)}:offset=${sec(length - fade)}[${vo}]`,
        `[${a}][a${i}]acrossfade=d=${sec(fade)}:c1=tri:c2=tri[${ao}]`,
      );
      length += segments[i]!.endMs - segments[i]!.startMs - fade;
      v = vo;
      a = ao;
    }
  } else {
    const inputs = segments.map((_, i) => `[v${i}][a${i}]`).join('');
    parts.push(`${inputs}concat=n=${n}:v=1:a=1[vout][aout]`);
  }
  return parts.join(';');
}

/** The whole ffmpeg command line: one seeked input per piece, H.264/AAC MP4 with faststart. */
export function trailerArgs(
  input: string,
  output: string,
  segments: readonly Segment[],
  f: TrailerFormat,
): string[] {
  const inputs = segments.flatMap((s) => [
    '-ss',
    sec(s.startMs),
    '-t',
    sec(s.endMs - s.startMs),
    ...videoInputArgs(input, f.container),
  ]);
  return [
    ...QUIET,
    '-y',
    ...inputs,
    '-filter_complex',
    trailerGraph(segments, f),
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-ar',
    String(AUDIO_RATE),
    '-map_metadata',
    '-1',
    '-sn',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
}

/** `ffmpeg -filters`, to learn whether this build has xfade. */
export function filtersArgs(): string[] {
  return ['-hide_banner', '-nostdin', '-filters'];
}

/** Filter names from the `ffmpeg -filters` listing (" .S. xfade  VV->V  Cross fade..."). */
export function parseFilterNames(listing: string): Set<string> {
  const names = new Set<string>();
  for (const line of listing.split('\n')) {
    const m = /^\s*[.A-Z|]{2,3}\s+(\w+)\s+\S+->\S+/.exec(line);
    if (m) names.add(m[1]!);
  }
  return names;
}
