// On-screen text of each scene, read by OCR from the scene's stored frames. Per scene one frame
// is read (two for long scenes, one from each half): among a few frames around the middle (away
// from fades), the one where text detection finds the most glyphs. Only the detected lines are
// read (ocr-image.ts), and only confident words are kept: a frame without text yields nothing
// rather than noise. One engine serves the whole video; it reads scene n while ffmpeg decodes
// scene n + 1, and is closed at the end whatever happens.
import { runProcess } from '../../media/run.ts';
import type { ScreenLine, ScreenTextReading } from '../provider.ts';
import { OcrEngine, type OcrLanguages, type OcrWord } from './ocr-engine.ts';
import { findText, textScore, type FrameText, type RgbImage } from './ocr-image.ts';
import { renderLines, toPgm, type DrawnLine } from './ocr-render.ts';

export interface ScreenTextScene {
  startMs: number;
  endMs: number;
  framePaths: string[];
}

export interface ScreenTextOptions {
  ffmpeg: string;
  /** The video's output language: its model is tried first for every word. */
  language: string;
  signal?: AbortSignal;
}

/** A word the engine is less sure of than this (0–100) is dropped. */
export const MIN_WORD_CONFIDENCE = 75;
/** From this length on a scene is read twice, once in each half. */
export const LONG_SCENE_MS = 20_000;
/** Frames compared per reading (the one with the most text wins). */
const CANDIDATES = 3;
/** Frames waiting for the engine before decoding pauses (bounds memory on long videos). */
const MAX_QUEUED = 2;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]/u;
const LATIN_WORD = /[\p{L}\p{N}]{3,}/u;

export const ocrLanguages = (outputLanguage: string): OcrLanguages =>
  outputLanguage.toLowerCase().startsWith('ja') ? ['jpn', 'eng'] : ['eng', 'jpn'];

/** Frame indexes to compare for each reading of a scene: a middle window, or one per half. */
export function candidateFrames(frameCount: number, durationMs: number): number[][] {
  if (frameCount === 0) return [];
  const windows: [number, number][] =
    durationMs >= LONG_SCENE_MS
      ? [
          [0.1, 0.45],
          [0.55, 0.9],
        ]
      : [[0.3, 0.7]];
  return windows.map(([a, b]) => {
    const picks = Array.from({ length: CANDIDATES }, (_, i) =>
      Math.round((a + ((b - a) * i) / (CANDIDATES - 1)) * (frameCount - 1)),
    );
    // Middle first, so that a tie keeps the frame farthest from the scene's edges.
    const unique = [...new Set(picks)];
    const mid = unique[Math.floor(unique.length / 2)]!;
    return [mid, ...unique.filter((i) => i !== mid)];
  });
}

/** Decodes same-sized images to RGB pixels with one ffmpeg run (PPM images on stdout). */
export async function decodeRgb(
  ffmpeg: string,
  files: string[],
  signal?: AbortSignal,
): Promise<RgbImage[]> {
  const inputs = files.flatMap((f) => ['-i', f]);
  const graph = `${files.map((_, i) => `[${i}:v]`).join('')}concat=n=${files.length}:v=1:a=0,format=rgb24[f]`;
  const { stdout } = await runProcess(
    ffmpeg,
    ['-hide_banner', '-nostdin', '-loglevel', 'error', ...inputs, '-filter_complex', graph].concat([
      '-map',
      '[f]',
      '-c:v',
      'ppm',
      '-f',
      'image2pipe',
      'pipe:1',
    ]),
    { signal, timeoutMs: 60_000, maxStdoutBytes: 64 * 1024 * 1024 },
  );
  return parsePpms(stdout);
}

const isSpace = (byte: number): boolean => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);

/** Binary PPM images (P6, 8 bits) one after the other, as ffmpeg's image2pipe writes them. */
export function parsePpms(buf: Buffer): RgbImage[] {
  const out: RgbImage[] = [];
  let at = 0;
  while (at < buf.length) {
    const fields: string[] = [];
    let pos = at;
    while (fields.length < 4) {
      while (pos < buf.length && isSpace(buf[pos]!)) pos++;
      const start = pos;
      while (pos < buf.length && !isSpace(buf[pos]!)) pos++;
      if (pos === start) throw new Error('truncated PPM header');
      fields.push(buf.toString('latin1', start, pos));
    }
    const [magic, w, h, max] = fields;
    if (magic !== 'P6' || max !== '255') throw new Error(`unexpected image header ${magic}`);
    const width = Number(w);
    const height = Number(h);
    const dataStart = pos + 1;
    const end = dataStart + width * height * 3;
    if (end > buf.length) throw new Error('truncated PPM data');
    out.push({ width, height, data: new Uint8Array(buf.subarray(dataStart, end)) });
    at = end;
  }
  return out;
}

/** Words joined as written: a space between words, none between two Japanese characters. */
export function joinWords(words: string[]): string {
  let text = '';
  for (const w of words) {
    if (text && !(CJK.test(text.at(-1)!) && CJK.test(w[0]!))) text += ' ';
    text += w;
  }
  return text;
}

/**
 * The confident words of each drawn line. A line is kept only when it holds a real word (three
 * letters or digits, or two Japanese characters): a lone confident letter is usually noise.
 */
export function linesFromWords(
  words: OcrWord[],
  drawn: DrawnLine[],
  frameHeight: number,
): ScreenLine[] {
  const lines: ScreenLine[] = [];
  for (const row of drawn) {
    const gap = (row.y1 - row.y0) / 2;
    const kept = words
      .filter((w) => w.centerY >= row.y0 - gap && w.centerY < row.y1 + gap)
      .filter((w) => w.confidence >= MIN_WORD_CONFIDENCE && LETTER_OR_DIGIT.test(w.text))
      .sort((a, b) => a.x0 - b.x0)
      .map((w) => w.text.trim())
      .filter(Boolean);
    const text = joinWords(kept);
    const cjkChars = [...text].filter((c) => CJK.test(c)).length;
    if (!LATIN_WORD.test(text.replace(new RegExp(CJK.source, 'gu'), ' ')) && cjkChars < 2) continue;
    lines.push({ text, size: row.line.glyphHeight / frameHeight });
  }
  return lines;
}

const sameText = (a: string, b: string): boolean =>
  a.normalize('NFKC').toLowerCase().replace(/\s+/g, '') ===
  b.normalize('NFKC').toLowerCase().replace(/\s+/g, '');

interface Reading {
  scene: number;
  found: FrameText;
}

/** The frames of one scene worth reading: per window, the candidate with the most text. */
async function chooseFrames(
  scene: ScreenTextScene,
  index: number,
  o: ScreenTextOptions,
): Promise<Reading[]> {
  const windows = candidateFrames(scene.framePaths.length, scene.endMs - scene.startMs);
  const wanted = [...new Set(windows.flat())];
  if (wanted.length === 0) return [];
  const images = await decodeRgb(
    o.ffmpeg,
    wanted.map((i) => scene.framePaths[i]!),
    o.signal,
  );
  const found = new Map(wanted.map((frame, k) => [frame, findText(images[k]!)]));
  const readings: Reading[] = [];
  for (const candidates of windows) {
    let best: FrameText | undefined;
    for (const c of candidates) {
      const f = found.get(c);
      if (f && textScore(f) > (best ? textScore(best) : 0)) best = f;
    }
    if (best && !readings.some((r) => r.found === best))
      readings.push({ scene: index, found: best });
  }
  return readings;
}

export async function readScreenText(
  scenes: ScreenTextScene[],
  o: ScreenTextOptions,
): Promise<ScreenTextReading> {
  const started = performance.now();
  const result: ScreenTextReading = { scenes: scenes.map(() => []), framesRead: 0, ms: 0 };
  let engine: Promise<OcrEngine> | undefined;
  let queue: Promise<void> = Promise.resolve();
  let queued = 0;
  let failure: unknown;
  const read = async (r: Reading): Promise<void> => {
    try {
      if (failure !== undefined) return;
      const { image, drawn } = renderLines(r.found, r.found.lines);
      const words = await (await engine!).read(toPgm(image));
      for (const line of linesFromWords(words, drawn, r.found.height)) {
        const lines = result.scenes[r.scene]!;
        if (!lines.some((l) => sameText(l.text, line.text))) lines.push(line);
      }
      result.framesRead++;
    } catch (err) {
      failure ??= err;
    } finally {
      queued--;
    }
  };
  try {
    for (const [i, scene] of scenes.entries()) {
      o.signal?.throwIfAborted();
      for (const reading of await chooseFrames(scene, i, o)) {
        // The engine starts (about 2 s) only once a frame shows text, while decoding goes on.
        if (!engine) {
          engine = OcrEngine.open(ocrLanguages(o.language));
          // Awaited by the first reading; until then a failure to start must not go unhandled.
          engine.catch(() => undefined);
        }
        queued++;
        queue = queue.then(() => read(reading));
      }
      if (queued >= MAX_QUEUED) await queue;
      if (failure !== undefined) throw failure;
    }
    await queue;
    if (failure !== undefined) throw failure;
  } finally {
    await queue;
    if (engine) await engine.then((e) => e.close()).catch(() => undefined);
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}
