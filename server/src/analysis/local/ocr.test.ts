// Reading on-screen text: which frames are compared, how words become lines (confident words
// only, never a lone letter), and a real read with the engine, which starts only when a frame
// shows text and is kept for the next video until the idle time passes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runProcess } from '../../media/run.ts';
import { resolveMediaTools } from '../../media/tools.ts';
import { DEFAULT_MODELS_IDLE_UNLOAD_S } from '../../config.ts';
import { setModelsIdleUnload } from '../../perception/thread-idle.ts';
import { closeSpareOcrEngines, OcrEngine, spareOcrEngines, type OcrWord } from './ocr-engine.ts';
import type { FrameText, Polarity, TextLine } from './ocr-image.ts';
import { toPgm, type DrawnLine } from './ocr-render.ts';
import { candidateFrames, confirmedRows, SURE_PARTS } from './ocr-frames.ts';
import { joinWords, linesFromWords, ocrLanguages, readScreenText } from './ocr.ts';

describe('candidateFrames', () => {
  it('compares three frames around the middle, the middle one first', () => {
    expect(candidateFrames(12, 5000)).toEqual([[6, 3, 8]]);
    expect(candidateFrames(1, 5000)).toEqual([[0]]);
    expect(candidateFrames(0, 5000)).toEqual([]);
  });

  it('reads a long scene twice, once in each half', () => {
    expect(candidateFrames(12, 30_000)).toEqual([
      [3, 1, 5],
      [8, 6, 10],
    ]);
  });
});

describe('confirmedRows', () => {
  /** A detected row of `parts` separate parts, 12 px high, its left end at x, its top at y. */
  const row = (x: number, y: number, parts: number, polarity: Polarity = 'light'): TextLine => ({
    polarity,
    box: { x0: x, y0: y, x1: x + parts * 10, y1: y + 12 },
    glyphs: parts,
    glyphHeight: 12,
    capHeight: 12,
    color: [240, 240, 240],
    labels: Array.from({ length: parts }, (_, i) => i + 1),
  });
  const frame = (...lines: TextLine[]): FrameText => ({
    lines,
    layers: new Map(),
    rgb: new Uint8Array(0),
    width: 640,
    height: 360,
  });
  const kept = (frames: FrameText[]): number[] => confirmedRows(frames).map((f) => f.lines.length);

  it('keeps a short row another candidate shows at the same place, drops one that moved', () => {
    // A word of four letters stays put (a title); chance rows of a texture move from picture to
    // picture (the Game of Life, a zoom into a fractal).
    expect(kept([frame(row(100, 50, 4)), frame(row(102, 51, 4)), frame()])).toEqual([1, 1, 0]);
    expect(kept([frame(row(100, 50, 4)), frame(row(300, 200, 5)), frame(row(20, 90, 4))])).toEqual([
      0, 0, 0,
    ]);
    // At the same place but seen the other way round (light against dark) is another row.
    expect(kept([frame(row(100, 50, 4)), frame(row(100, 50, 4, 'dark'))])).toEqual([0, 0]);
  });

  it('keeps a row of SURE_PARTS parts on one picture, and every row of a lone candidate', () => {
    expect(kept([frame(row(100, 50, SURE_PARTS)), frame(), frame()])).toEqual([1, 0, 0]);
    expect(kept([frame(row(100, 50, SURE_PARTS - 1)), frame(), frame()])).toEqual([0, 0, 0]);
    expect(kept([frame(row(100, 50, 4))])).toEqual([1]);
  });
});

it('tries the output language first', () => {
  expect(ocrLanguages('ja')).toEqual(['jpn', 'eng']);
  expect(ocrLanguages('ja-JP')).toEqual(['jpn', 'eng']);
  expect(ocrLanguages('en')).toEqual(['eng', 'jpn']);
});

it('joins words with spaces, but not between Japanese characters', () => {
  expect(joinWords(['HARBOUR', 'FESTIVAL'])).toBe('HARBOUR FESTIVAL');
  expect(joinWords(['横浜', '港', 'の', '花火'])).toBe('横浜港の花火');
  expect(joinWords(['東京', 'Tower', '2024'])).toBe('東京 Tower 2024');
});

describe('linesFromWords', () => {
  const line = (glyphHeight: number): TextLine => ({
    polarity: 'light',
    box: { x0: 0, y0: 0, x1: 100, y1: glyphHeight },
    glyphs: 5,
    glyphHeight,
    capHeight: glyphHeight,
    color: [255, 255, 255],
    labels: [],
  });
  const drawn: DrawnLine[] = [
    { line: line(36), y0: 16, y1: 80 },
    { line: line(18), y0: 98, y1: 160 },
    { line: line(18), y0: 178, y1: 240 },
  ];
  const word = (text: string, confidence: number, centerY: number, x0 = 0): OcrWord => ({
    text,
    confidence,
    centerY,
    x0,
  });

  it('keeps confident words of each drawn line, left to right, with the line size', () => {
    const words = [
      word('FESTIVAL', 96, 48, 300),
      word('HARBOUR', 93, 50, 20),
      word('~~', 90, 48, 500),
      word('Fireworks', 95, 130),
      word('tonight', 40, 130, 200),
    ];
    expect(linesFromWords(words, drawn, 360)).toEqual([
      { text: 'HARBOUR FESTIVAL', size: 0.1 },
      { text: 'Fireworks', size: 0.05 },
    ]);
  });

  it('drops a line without a real word: lone letters, one Japanese character, noise', () => {
    const words = [
      word('A', 90, 48),
      word('B', 92, 48, 30),
      word('に', 85, 130),
      word('2024', 40, 210),
      word('ab', 99, 210, 40),
    ];
    expect(linesFromWords(words, drawn, 360)).toEqual([]);
    expect(linesFromWords([word('花火', 90, 130)], drawn, 360)).toEqual([
      { text: '花火', size: 0.05 },
    ]);
  });
});

describe('readScreenText', () => {
  const jaTitle = fileURLToPath(
    new URL('../../../../tests/fixtures/ocr/ja-title.png', import.meta.url),
  );
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  let dir: string;
  let titled: string;
  let plain: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-ocr-unit-'));
    titled = path.join(dir, 'titled.jpg');
    plain = path.join(dir, 'plain.jpg');
    const q = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
    await runProcess(ffmpeg, [
      ...[...q, '-f', 'lavfi', '-i', 'smptehdbars=size=640x360', '-i', jaTitle],
      ...['-filter_complex', '[0:v][1:v]overlay=(W-w)/2:H*0.62', '-frames:v', '1', titled],
    ]);
    await runProcess(ffmpeg, [
      ...[...q, '-f', 'lavfi', '-i', 'color=c=0x336699:size=640x360'],
      ...['-frames:v', '1', plain],
    ]);
  });

  afterAll(async () => {
    setModelsIdleUnload(DEFAULT_MODELS_IDLE_UNLOAD_S);
    await closeSpareOcrEngines();
    fs.rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('reads the text of a frame with one engine, kept for the next video', async () => {
    const open = vi.spyOn(OcrEngine, 'open');
    const close = vi.spyOn(OcrEngine.prototype, 'close');
    const read = await readScreenText(
      [
        { startMs: 0, endMs: 3000, framePaths: [titled] },
        { startMs: 3000, endMs: 6000, framePaths: [plain, plain] },
        { startMs: 6000, endMs: 9000, framePaths: [titled] },
      ],
      { language: 'ja' },
    );
    expect(read.scenes.map((lines) => lines.map((l) => l.text))).toEqual([
      ['横浜港の花火大会'],
      [],
      ['横浜港の花火大会'],
    ]);
    expect(read.scenes[0]![0]!.size).toBeGreaterThan(0.08);
    expect(read.framesRead).toBe(2);
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(['jpn', 'eng']);
    expect(close).not.toHaveBeenCalled();
    expect(spareOcrEngines()).toBe(1);
  });

  it('closes the engine after the idle time; the next video opens one and reads the same', async () => {
    await closeSpareOcrEngines();
    // Longer than the text detection thread takes to start again on a loaded machine (it idles
    // out too), so that the second video comes within the engine's idle time.
    setModelsIdleUnload(3);
    const open = vi.spyOn(OcrEngine, 'open');
    open.mockClear();
    const video = [{ startMs: 0, endMs: 3000, framePaths: [titled] }];
    const first = await readScreenText(video, { language: 'ja' });
    // Back to back, within the idle time: one engine for both.
    const again = await readScreenText(video, { language: 'ja' });
    expect(open).toHaveBeenCalledTimes(1);
    expect(spareOcrEngines()).toBe(1);
    const end = Date.now() + 15_000;
    while (spareOcrEngines() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    expect(spareOcrEngines()).toBe(0);
    const later = await readScreenText(video, { language: 'ja' });
    expect(open).toHaveBeenCalledTimes(2);
    expect(first.scenes).toEqual([[expect.objectContaining({ text: '横浜港の花火大会' })]]);
    expect(again.scenes).toEqual(first.scenes);
    expect(later.scenes).toEqual(first.scenes);
  });

  it('does not start the engine when no frame shows text', async () => {
    const open = vi.spyOn(OcrEngine, 'open');
    open.mockClear();
    const read = await readScreenText([{ startMs: 0, endMs: 3000, framePaths: [plain] }], {
      language: 'en',
    });
    expect(read.scenes).toEqual([[]]);
    expect(open).not.toHaveBeenCalled();
  });
});

it('fails a read that takes too long, and still closes', async () => {
  const engine = await OcrEngine.open(['eng']);
  try {
    const image = toPgm({ width: 200, height: 60, data: new Uint8Array(200 * 60).fill(255) });
    await expect(engine.read(image, 1)).rejects.toThrow(/timed out/);
  } finally {
    await engine.close();
  }
});
