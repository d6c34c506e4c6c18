// Small videos made with ffmpeg's built-in sources, with known scene boundaries: hard cuts,
// fades through black (or white), cross-dissolves and wipes, optionally a mov_text subtitle track and a silent
// audio track. Used by the integration tests and the benches. Only filters that ffmpeg 4.1 has.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';

export type Transition =
  | { kind: 'cut' }
  | { kind: 'dissolve'; seconds: number }
  /** Out to a flat colour and in from it (black unless `color`, e.g. white). */
  | { kind: 'fade'; seconds: number; color?: string }
  /** The next picture pushes in from one side over the old one, an edge moving across. */
  | { kind: 'wipe'; seconds: number; from: 'left' | 'right' | 'top' | 'bottom' };

/** Where B (the incoming picture) shows in a blend at progress P, per wipe direction. */
const WIPE_EDGE = {
  left: 'lte(X,W*P)',
  right: 'gte(X,W*(1-P))',
  top: 'lte(Y,H*P)',
  bottom: 'gte(Y,H*(1-P))',
} as const;

export interface Segment {
  /** An ffmpeg source such as testsrc, testsrc2, smptebars, rgbtestsrc, mandelbrot, color=c=red. */
  source: string;
  seconds: number;
  /** Filters applied after the source, e.g. a moving crop that looks like a camera pan. */
  extra?: string;
  /** How this segment begins (ignored for the first one). */
  transition?: Transition;
}

export interface VideoSpec {
  segments: Segment[];
  width?: number;
  height?: number;
  fps?: number;
  /** Subtitle cues muxed as a mov_text track. */
  subtitles?: { startMs: number; endMs: number; text: string }[];
  /** Adds a silent AAC track. */
  silentAudio?: boolean;
  /** x264 preset; the throughput bench wants a realistic (slower) encode. */
  preset?: string;
  /**
   * Extra x264 settings, e.g. `bframes=3:b-pyramid=none` for B-frames no picture refers to (the
   * default ultrafast preset has no B-frames: every picture is a reference).
   */
  x264Params?: string;
  /**
   * A keyframe every this many seconds and nowhere else (x264 otherwise adds one at each cut), as
   * cameras and screen recorders write them: scenes then begin between keyframes.
   */
  keyframeSeconds?: number;
}

export interface MadeVideo {
  file: string;
  durationMs: number;
  /** Where each scene after the first begins, in ms (the middle of a dissolve). */
  boundariesMs: number[];
}

const srtTime = (ms: number): string => {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
};

function sourceFilter(source: string, w: number, h: number, fps: number, seconds: number): string {
  const name = source.split('=', 1)[0]!;
  const opts = source.length > name.length ? `${source.slice(name.length + 1)}:` : '';
  // These generators have no duration option: cut them with trim instead.
  const endless = name === 'mandelbrot' || name === 'life' || name === 'cellauto';
  const base = `${name}=${opts}size=${w}x${h}:rate=${fps}`;
  return endless
    ? `${base},trim=duration=${seconds.toFixed(3)}`
    : `${base}:duration=${seconds.toFixed(3)}`;
}

/** The filter graph and the known boundaries for a list of segments. */
export function buildGraph(spec: VideoSpec): {
  graph: string;
  durationMs: number;
  boundariesMs: number[];
} {
  const w = spec.width ?? 160;
  const h = spec.height ?? 120;
  const fps = spec.fps ?? 25;
  const parts: string[] = [];
  const pieces: string[] = [];
  const boundaries: number[] = [];
  let clock = 0;
  spec.segments.forEach((seg, i) => {
    const incoming = i > 0 ? (seg.transition ?? { kind: 'cut' }) : undefined;
    const next = spec.segments[i + 1]?.transition;
    // Dissolves and wipes overlap the two segments; fades are cut into each side.
    const overlap = (t: Transition | undefined): number =>
      t?.kind === 'dissolve' || t?.kind === 'wipe' ? t.seconds : 0;
    const dIn = overlap(incoming);
    const dOut = overlap(next);
    const fadeIn = incoming?.kind === 'fade' ? incoming.seconds / 2 : 0;
    const fadeOut = next?.kind === 'fade' ? next.seconds / 2 : 0;
    const fadeColor = (t: Transition | undefined): string =>
      t?.kind === 'fade' && t.color ? `:c=${t.color}` : '';
    const body = seg.seconds - dIn - dOut;
    if (body <= 0) throw new Error(`segment ${i} is shorter than its dissolves`);
    const outs = [...(dIn > 0 ? [`h${i}`] : []), `b${i}`, ...(dOut > 0 ? [`t${i}`] : [])];
    const src = `${sourceFilter(seg.source, w, h, fps, seg.seconds)}${seg.extra ? `,${seg.extra}` : ''},format=yuv420p`;
    parts.push(
      outs.length > 1
        ? `${src},split=${outs.length}${outs.map((o) => `[s${o}]`).join('')}`
        : `${src}[s${outs[0]}]`,
    );
    // Head (blended with the previous tail), body, tail (blended into the next head).
    const cut = (o: string, from: number, to: number, extra = ''): string =>
      `[s${o}]trim=${from.toFixed(3)}:${to.toFixed(3)},setpts=PTS-STARTPTS${extra}[${o}]`;
    if (dIn > 0) parts.push(cut(`h${i}`, 0, dIn));
    let fades = '';
    if (fadeIn > 0) fades += `,fade=t=in:st=0:d=${fadeIn.toFixed(3)}${fadeColor(incoming)}`;
    if (fadeOut > 0) {
      fades += `,fade=t=out:st=${(body - fadeOut).toFixed(3)}:d=${fadeOut.toFixed(3)}`;
      fades += fadeColor(next);
    }
    parts.push(cut(`b${i}`, dIn, dIn + body, fades));
    if (dOut > 0) parts.push(cut(`t${i}`, dIn + body, seg.seconds));
    if (incoming) {
      if (dIn > 0) {
        const expr =
          incoming?.kind === 'wipe'
            ? `if(${WIPE_EDGE[incoming.from].replaceAll('P', `T/${dIn}`)},B,A)`
            : `A*(1-T/${dIn})+B*(T/${dIn})`;
        parts.push(`[t${i - 1}][h${i}]blend=all_expr='${expr}'[x${i}]`);
        pieces.push(`[x${i}]`);
        boundaries.push(Math.round((clock + dIn / 2) * 1000));
        clock += dIn;
      } else {
        boundaries.push(Math.round(clock * 1000));
      }
    }
    pieces.push(`[b${i}]`);
    clock += body;
  });
  parts.push(`${pieces.join('')}concat=n=${pieces.length}:v=1:a=0[out]`);
  return { graph: parts.join(';'), durationMs: Math.round(clock * 1000), boundariesMs: boundaries };
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
];

/** A bold TrueType font for drawtext (Debian's ffmpeg pulls one in through fontconfig). */
export function drawtextFont(): string {
  const found = FONT_CANDIDATES.find((f) => fs.existsSync(f));
  if (found) return found;
  try {
    const file = execFileSync('fc-match', ['-f', '%{file}', 'sans:bold'], { encoding: 'utf8' });
    if (file && fs.existsSync(file)) return file;
  } catch {
    // No fontconfig either.
  }
  throw new Error('no TrueType font found for drawtext (install fonts-dejavu-core)');
}

const cacheDir = path.join(os.tmpdir(), 'va-test-media');

/** Makes (or reuses from the temp cache) the video described by spec. */
export async function makeVideo(spec: VideoSpec): Promise<MadeVideo> {
  const { graph, durationMs, boundariesMs } = buildGraph(spec);
  const key = crypto.createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16);
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `${key}.mp4`);
  if (fs.existsSync(file)) return { file, durationMs, boundariesMs };

  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  // Unique per call: two calls with one spec at once must not write one file.
  const tmp = `${file}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.part.mp4`;
  const inputs: string[] = [];
  const maps = ['-map', '[out]'];
  let next = 0;
  if (spec.silentAudio) {
    inputs.push('-f', 'lavfi', '-i', `anullsrc=r=44100:cl=mono`);
    next += 1;
    maps.push('-map', `${next - 1}:a`);
  }
  let srt: string | undefined;
  if (spec.subtitles?.length) {
    srt = `${tmp}.srt`;
    fs.writeFileSync(
      srt,
      spec.subtitles
        .map((c, i) => `${i + 1}\n${srtTime(c.startMs)} --> ${srtTime(c.endMs)}\n${c.text}\n`)
        .join('\n'),
    );
    inputs.push('-i', srt);
    next += 1;
    maps.push('-map', `${next - 1}:s`);
  }
  try {
    await runProcess(
      ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        '-y',
        ...inputs,
        '-filter_complex',
        graph,
        ...maps,
        '-c:v',
        'libx264',
        '-preset',
        spec.preset ?? 'ultrafast',
        ...(spec.x264Params ? ['-x264-params', spec.x264Params] : []),
        '-pix_fmt',
        'yuv420p',
        ...(spec.keyframeSeconds
          ? [
              '-g',
              String(Math.round(spec.keyframeSeconds * (spec.fps ?? 25))),
              '-sc_threshold',
              '0',
            ]
          : []),
        ...(spec.silentAudio ? ['-c:a', 'aac', '-b:a', '32k'] : []),
        ...(srt ? ['-c:s', 'mov_text'] : []),
        '-t',
        (durationMs / 1000).toFixed(3),
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        tmp,
      ],
      { timeoutMs: 10 * 60_000 },
    );
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
    if (srt) fs.rmSync(srt, { force: true });
  }
  return { file, durationMs, boundariesMs };
}
