// On-screen text of each scene, read by OCR from the scene's stored frames. Per scene one frame
// is read (two for long scenes, one from each half): among a few frames around the middle (away
// from fades), the one where text detection finds the most glyphs. Only the detected lines are
// read (ocr-image.ts), and only confident words are kept: a frame without text yields nothing
// rather than noise; a drawn line that gives no word is read once more at another size. One
// engine serves the whole video; it reads scene n while the next scenes' frames are decoded and
// searched for text (ocr-frames.ts, in a thread of its own), and is closed at the end whatever
// happens.
import type { ScreenLine, ScreenTextReading } from '../provider.ts';
import { OcrEngine, type OcrLanguages, type OcrWord } from './ocr-engine.ts';
import type { FrameReading } from './ocr-frames.ts';
import { sceneReadings } from './ocr-frames-thread.ts';
import { fromPgm, redrawLines, toPgm, type DrawnLine } from './ocr-render.ts';

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
/** The scale of a drawn line's second read, where the first gave no word. */
const RETRY_SCALE = 0.7;
/** Frames waiting for the engine before detection pauses (bounds memory on long videos). */
const MAX_QUEUED = 8;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]/u;
const LATIN_WORD = /[\p{L}\p{N}]{3,}/u;

export const ocrLanguages = (outputLanguage: string): OcrLanguages =>
  outputLanguage.toLowerCase().startsWith('ja') ? ['jpn', 'eng'] : ['eng', 'jpn'];

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
  drawn: readonly DrawnLine[],
  frameHeight: number,
): ScreenLine[] {
  return rowLines(words, drawn, frameHeight).filter((l) => l !== undefined);
}

/** linesFromWords for each drawn line: undefined where it holds no real word. */
function rowLines(
  words: OcrWord[],
  drawn: readonly DrawnLine[],
  frameHeight: number,
): (ScreenLine | undefined)[] {
  const lines: (ScreenLine | undefined)[] = [];
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
    const real = LATIN_WORD.test(text.replace(new RegExp(CJK.source, 'gu'), ' ')) || cjkChars >= 2;
    lines.push(real ? { text, size: row.line.capHeight / frameHeight } : undefined);
  }
  return lines;
}

/**
 * The lines of a reading. The drawn lines that give no word are read once more at RETRY_SCALE of
 * their drawn size: the engine reads a few clean lines as nothing at one size and whole at another
 * (docs/decisions/ocr.md).
 */
async function readLines(engine: OcrEngine, r: FrameReading): Promise<ScreenLine[]> {
  const first = rowLines(await engine.read(r.image), r.drawn, r.frameHeight);
  const missed = r.drawn.filter((_, i) => first[i] === undefined);
  if (missed.length === 0) return first.filter((l) => l !== undefined);
  const again = redrawLines(fromPgm(r.image), missed, RETRY_SCALE);
  const second = rowLines(await engine.read(toPgm(again.image)), again.drawn, r.frameHeight);
  // In reading order: each line missed takes its second read's place.
  let next = 0;
  return first.map((l) => l ?? second[next++]).filter((l) => l !== undefined);
}

const sameText = (a: string, b: string): boolean =>
  a.normalize('NFKC').toLowerCase().replace(/\s+/g, '') ===
  b.normalize('NFKC').toLowerCase().replace(/\s+/g, '');

/** A frame chosen for reading, drawn for the engine, of scene `scene`. */
interface Reading extends FrameReading {
  scene: number;
}

/**
 * The frames worth reading, scene after scene, found in the text detection's thread
 * (ocr-frames-thread.ts).
 */
async function* readings(scenes: ScreenTextScene[], o: ScreenTextOptions): AsyncGenerator<Reading> {
  for (const [index, scene] of scenes.entries()) {
    o.signal?.throwIfAborted();
    const found = await sceneReadings(scene.framePaths, scene.endMs - scene.startMs);
    for (const f of found) yield { scene: index, ...f };
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
      const lines = result.scenes[r.scene]!;
      for (const line of await readLines(await engine!, r)) {
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
