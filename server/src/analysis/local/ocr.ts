// On-screen text of each scene, read by OCR from the scene's stored frames. Per scene one frame
// is read (two for long scenes, one from each half): among a few frames around the middle (away
// from fades), the one where text detection finds the most glyphs. Only the detected lines are
// read (ocr-image.ts), and only confident words are kept: a frame without text yields nothing
// rather than noise. One engine serves the whole video; it reads scene n while ffmpeg decodes
// scene n + 1, and is closed at the end whatever happens.
import { imageInputArgs } from '../../media/args.ts';
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
/** Frames waiting for the engine before detection pauses (bounds memory on long videos). */
const MAX_QUEUED = 8;
/** Candidate frames decoded by one ffmpeg run. */
const BATCH_FRAMES = 12;

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
  const inputs = files.flatMap((f) => imageInputArgs(f));
  const joined = files.map((_, i) => `[${i}:v]`).join('');
  const graph = `${joined}concat=n=${files.length}:v=1:a=0,format=rgb24[f]`;
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', ...inputs];
  args.push('-filter_complex', graph, '-map', '[f]');
  // Every frame out, even where two inputs carry the same timestamp.
  args.push('-vsync', '0', '-c:v', 'ppm', '-f', 'image2pipe', 'pipe:1');
  const { stdout } = await runProcess(ffmpeg, args, {
    signal,
    timeoutMs: 60_000,
    maxStdoutBytes: 64 * 1024 * 1024,
  });
  const images = parsePpms(stdout);
  if (images.length !== files.length) {
    throw new Error(`decoded ${images.length} of ${files.length} frames`);
  }
  return images;
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
    // A view, not a copy: the images of one run share its output buffer.
    out.push({
      width,
      height,
      data: new Uint8Array(buf.buffer, buf.byteOffset + dataStart, end - dataStart),
    });
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
    lines.push({ text, size: row.line.capHeight / frameHeight });
  }
  return lines;
}

const sameText = (a: string, b: string): boolean =>
  a.normalize('NFKC').toLowerCase().replace(/\s+/g, '') ===
  b.normalize('NFKC').toLowerCase().replace(/\s+/g, '');

/** A frame chosen for reading, drawn for the engine. */
interface Reading {
  scene: number;
  image: Buffer;
  drawn: DrawnLine[];
  frameHeight: number;
}

/** Per window of candidates, the one where detection found the most text (none if none did). */
function chooseFrames(windows: number[][], found: Map<number, FrameText>): FrameText[] {
  const chosen: FrameText[] = [];
  for (const candidates of windows) {
    let best: FrameText | undefined;
    for (const c of candidates) {
      const f = found.get(c);
      if (f && textScore(f) > (best ? textScore(best) : 0)) best = f;
    }
    if (best && !chosen.includes(best)) chosen.push(best);
  }
  return chosen;
}

/**
 * The frames worth reading, scene after scene. Candidates of several scenes are decoded by one
 * ffmpeg run (BATCH_FRAMES at a time); each frame's detection is dropped once it is drawn.
 */
async function* readings(scenes: ScreenTextScene[], o: ScreenTextOptions): AsyncGenerator<Reading> {
  let batch: { scene: number; windows: number[][]; wanted: number[] }[] = [];
  let files: string[] = [];
  async function* flush(): AsyncGenerator<Reading> {
    if (files.length === 0) return;
    const images = await decodeRgb(o.ffmpeg, files, o.signal);
    let at = 0;
    for (const item of batch) {
      const found = new Map(item.wanted.map((frame, k) => [frame, findText(images[at + k]!)]));
      at += item.wanted.length;
      for (const f of chooseFrames(item.windows, found)) {
        const { image, drawn } = renderLines(f, f.lines);
        yield { scene: item.scene, image: toPgm(image), drawn, frameHeight: f.height };
      }
    }
    batch = [];
    files = [];
  }
  for (const [index, scene] of scenes.entries()) {
    o.signal?.throwIfAborted();
    const windows = candidateFrames(scene.framePaths.length, scene.endMs - scene.startMs);
    const wanted = [...new Set(windows.flat())];
    batch.push({ scene: index, windows, wanted });
    files.push(...wanted.map((i) => scene.framePaths[i]!));
    if (files.length >= BATCH_FRAMES) yield* flush();
  }
  yield* flush();
}

export async function readScreenText(
  scenes: ScreenTextScene[],
  o: ScreenTextOptions,
): Promise<ScreenTextReading> {
  const started = performance.now();
  const result: ScreenTextReading = { scenes: scenes.map(() => []), framesRead: 0, ms: 0 };
  let engine: Promise<OcrEngine> | undefined;
  let chain: Promise<void> = Promise.resolve();
  const pending: Promise<void>[] = [];
  let failure: unknown;
  const read = async (r: Reading): Promise<void> => {
    try {
      if (failure !== undefined) return;
      const words = await (await engine!).read(r.image);
      const lines = result.scenes[r.scene]!;
      for (const line of linesFromWords(words, r.drawn, r.frameHeight)) {
        if (!lines.some((l) => sameText(l.text, line.text))) lines.push(line);
      }
      result.framesRead++;
    } catch (err) {
      failure ??= err;
    }
  };
  try {
    for await (const reading of readings(scenes, o)) {
      // The engine starts (about 2 s) once a frame shows text; detection goes on meanwhile.
      if (!engine) {
        engine = OcrEngine.open(ocrLanguages(o.language));
        // Awaited by the first reading; until then a failure to start must not go unhandled.
        engine.catch(() => undefined);
      }
      chain = chain.then(() => read(reading));
      pending.push(chain);
      if (pending.length >= MAX_QUEUED) await pending.shift();
      if (failure !== undefined) throw failure;
    }
    await chain;
    if (failure !== undefined) throw failure;
  } finally {
    await chain;
    if (engine) await engine.then((e) => e.close()).catch(() => undefined);
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}
