// Pure ffmpeg argument builders for the trailer: no I/O, unit-tested. Each piece is read with its
// own input seek (-ss/-t before -i), so only the chosen spans of a long video are decoded.
// With xfade (ffmpeg 4.3+) pieces cross-dissolve into each other; older builds (the npm 4.1)
// fade each piece out and in and join them with concat.
import {
  AAC_ARGS,
  browserMp4Output,
  H264_ARGS,
  QUIET,
  seconds,
  videoInputArgs,
  type VideoFormat,
} from '../media/args.ts';
import type { Segment } from './plan.ts';

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
  const d = seconds(seg.endMs - seg.startMs);
  const length = seg.endMs - seg.startMs;
  const { width: w, height: h } = f;
  // The first piece fades in from black and the last fades out; in concat mode every piece does.
  const fadeIn = (i === 0 || !f.xfade) && fade > 0;
  const fadeOut = (last || !f.xfade) && fade > 0;
  const vFades =
    (fadeIn ? `,fade=t=in:st=0:d=${seconds(fade)}` : '') +
    (fadeOut ? `,fade=t=out:st=${seconds(length - fade)}:d=${seconds(fade)}` : '');
  const aFades =
    (fadeIn ? `,afade=t=in:st=0:d=${seconds(fade)}` : '') +
    (fadeOut ? `,afade=t=out:st=${seconds(length - fade)}:d=${seconds(fade)}` : '');
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
        `[${v}][v${i}]xfade=transition=fade:duration=${seconds(fade)}:offset=${seconds(length - fade)}[${vo}]`,
        `[${a}][a${i}]acrossfade=d=${seconds(fade)}:c1=tri:c2=tri[${ao}]`,
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
    seconds(s.startMs),
    '-t',
    seconds(s.endMs - s.startMs),
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
    ...H264_ARGS,
    '-pix_fmt',
    'yuv420p',
    ...AAC_ARGS,
    '-ar',
    String(AUDIO_RATE),
    '-map_metadata',
    '-1',
    ...browserMp4Output(output),
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
