// On-screen text of each scene, read by OCR from the scene's stored frames. Per scene one frame
// is read (two for long scenes, one from each half): among a few frames around the middle (away
// from fades), the one where text detection finds the most glyphs. Only the detected lines are
// read (ocr-image.ts), and only confident words are kept: a frame without text yields nothing
// rather than noise. One engine serves the whole video; it reads scene n while the next scenes'
// frames are decoded and searched for text, and is closed at the end whatever happens.
import { decodeJpegFile } from '../../media/jpeg-frames.ts';
import type { ScreenLine, ScreenTextReading } from '../provider.ts';
import { OcrEngine, type OcrLanguages, type OcrWord } from './ocr-engine.ts';
import { findText, height, textScore, width, type FrameText, type TextLine } from './ocr-image.ts';
import { renderLines, toPgm, type DrawnLine } from './ocr-render.ts';

export interface ScreenTextScene {
  startMs: number;
  endMs: number;
  framePaths: string[];
}

export interface ScreenTextOptions {
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

/**
 * A row of this many separate parts is taken for text on one picture. A shorter one counts only
 * where another candidate of its window shows a row at the same place: short rows of shapes turn
 * up by chance in moving textures (the Game of Life, a zoom into a fractal), where they do not
 * stay put, and each cost an engine start (bench/text-detection.ts).
 */
export const SURE_PARTS = 6;

const overlap = (a0: number, a1: number, b0: number, b1: number): number =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** Two rows of one polarity covering much of the same place, at about the same glyph size. */
function samePlace(a: TextLine, b: TextLine): boolean {
  if (a.polarity !== b.polarity) return false;
  const ratio = a.glyphHeight / b.glyphHeight;
  if (ratio > 1.5 || ratio < 1 / 1.5) return false;
  const across = overlap(a.box.x0, a.box.x1, b.box.x0, b.box.x1);
  const down = overlap(a.box.y0, a.box.y1, b.box.y0, b.box.y1);
  const narrower = Math.min(width(a.box), width(b.box));
  const lower = Math.min(height(a.box), height(b.box));
  return across >= 0.5 * narrower && down >= 0.5 * lower;
}

/**
 * The rows of each candidate of one window that count (SURE_PARTS); with a single candidate
 * there is nothing to compare, and every row counts.
 */
export function confirmedRows(candidates: readonly FrameText[]): FrameText[] {
  if (candidates.length < 2) return [...candidates];
  return candidates.map((f) => ({
    ...f,
    lines: f.lines.filter(
      (line) =>
        line.labels.length >= SURE_PARTS ||
        candidates.some((other) => other !== f && other.lines.some((o) => samePlace(line, o))),
    ),
  }));
}

/** Per window of candidates, the one where detection found the most text (none if none did). */
function chooseFrames(windows: number[][], found: Map<number, FrameText>): FrameText[] {
  const chosen: FrameText[] = [];
  for (const window of windows) {
    let best: FrameText | undefined;
    for (const f of confirmedRows(window.map((c) => found.get(c)!))) {
      if (textScore(f) > (best ? textScore(best) : 0)) best = f;
    }
    if (best && !chosen.some((c) => c.rgb === best.rgb)) chosen.push(best);
  }
  return chosen;
}

/**
 * The frames worth reading, scene after scene. Each candidate is decoded when its turn comes
 * (media/jpeg-frames.ts); each frame's detection is dropped once it is drawn.
 */
async function* readings(scenes: ScreenTextScene[], o: ScreenTextOptions): AsyncGenerator<Reading> {
  for (const [index, scene] of scenes.entries()) {
    const windows = candidateFrames(scene.framePaths.length, scene.endMs - scene.startMs);
    const found = new Map<number, FrameText>();
    for (const frame of new Set(windows.flat())) {
      o.signal?.throwIfAborted();
      found.set(frame, findText(await decodeJpegFile(scene.framePaths[frame]!)));
    }
    for (const f of chooseFrames(windows, found)) {
      const { image, drawn } = renderLines(f, f.lines);
      yield { scene: index, image: toPgm(image), drawn, frameHeight: f.height };
    }
  }
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
        engine = OcrEngine.borrow(ocrLanguages(o.language));
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
    // Kept for the next video unless a read failed on it (perception/thread-idle.ts).
    const failed = failure !== undefined;
    if (engine) await engine.then((e) => e.giveBack(failed)).catch(() => undefined);
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}
