// Text detection of a scene's frames, before the OCR engine reads them (ocr.ts): the candidate
// frames around a scene's middle are decoded (media/jpeg-frames.ts), searched for rows of glyphs
// (ocr-image.ts), the one with the most text per window is chosen and its rows are drawn for the
// engine (ocr-render.ts). It runs in a thread of its own (ocr-frames-thread.ts): 6-12 ms of decode
// and 22-60 ms of detection a frame held the server's event loop with WORKER=inline.
import { decodeJpegFile } from '../../media/jpeg-frames.ts';
import { findText, height, textScore, width, type FrameText, type TextLine } from './ocr-image.ts';
import { renderLines, toPgm, type DrawnLine } from './ocr-render.ts';

/** From this length on a scene is read twice, once in each half. */
export const LONG_SCENE_MS = 20_000;
/** Frames compared per reading (the one with the most text wins). */
const CANDIDATES = 3;

/** A frame chosen for reading, drawn for the engine. */
export interface FrameReading {
  /** The drawn lines, as a PGM image. */
  image: Buffer;
  drawn: DrawnLine[];
  frameHeight: number;
}

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
 * The frames of one scene worth reading (none when no candidate shows text). Each candidate is
 * decoded when its turn comes; each frame's detection is dropped once it is drawn.
 */
export async function detectSceneText(
  framePaths: readonly string[],
  durationMs: number,
): Promise<FrameReading[]> {
  const windows = candidateFrames(framePaths.length, durationMs);
  const found = new Map<number, FrameText>();
  for (const frame of new Set(windows.flat())) {
    found.set(frame, findText(await decodeJpegFile(framePaths[frame]!)));
  }
  return chooseFrames(windows, found).map((f) => {
    const { image, drawn } = renderLines(f, f.lines);
    return { image: toPgm(image), drawn, frameHeight: f.height };
  });
}
