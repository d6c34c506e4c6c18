// Detected text lines drawn for the OCR engine: each line cropped, scaled to one glyph height
// and drawn black on white from its own glyphs only, the lines stacked one under the other.
import {
  COLOR_TOLERANCE,
  colorDistance,
  height,
  width,
  type Box,
  type FrameText,
  type GrayImage,
  type Layer,
  type TextLine,
} from './ocr-image.ts';

/** Glyph height (px) the lines are scaled to for the OCR engine (it reads 20–40 px best). */
export const TARGET_GLYPH_HEIGHT = 36;
const MARGIN = 16;
/** Crop above and below a line's typical glyph, in glyph heights. */
const ABOVE = 0.55;
const BELOW = 0.45;
/** A drawn pixel's colour is within this distance (per channel) of its line's colour. */
const PIXEL_TOLERANCE = 80;
/** A stroke continuing a line is at least this many glyph heights long (smaller: a mark). */
const CONTINUATION_MIN = 0.25;
/** Widest gap (in glyph heights) between a line and a stroke continuing it, as in grouping. */
const MAX_GAP = 1.5;
/** The character a continuing stroke belongs to is this high at least (in the line's cap heights). */
const CHARACTER_MIN = 0.7;
/** ...and its bottom this near the line's baseline (in glyph heights). */
const BASELINE_TOLERANCE = 0.3;

/** A line drawn into the image for the OCR engine, and the rows of that image it occupies. */
export interface DrawnLine {
  line: TextLine;
  y0: number;
  y1: number;
}

/**
 * The lines, top to bottom then left to right, each cropped, scaled to TARGET_GLYPH_HEIGHT and
 * drawn black on white from its own components only (a bilinear sample of the component mask,
 * so scaled-up edges stay smooth), stacked with a blank gap between lines.
 */
export function renderLines(
  found: FrameText,
  lines: TextLine[],
): { image: GrayImage; drawn: DrawnLine[] } {
  const ordered = [...lines].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  const pieces = ordered.map((line) => renderLine(found, line));
  const gap = Math.round(TARGET_GLYPH_HEIGHT / 2);
  const w = Math.max(1, ...pieces.map((p) => p.width)) + 2 * MARGIN;
  const h =
    pieces.reduce((n, p) => n + p.height, 0) + gap * Math.max(0, pieces.length - 1) + 2 * MARGIN;
  const data = new Uint8Array(w * h).fill(255);
  const drawn: DrawnLine[] = [];
  let top = MARGIN;
  pieces.forEach((p, i) => {
    for (let y = 0; y < p.height; y++) {
      data.set(p.data.subarray(y * p.width, (y + 1) * p.width), (top + y) * w + MARGIN);
    }
    drawn.push({ line: ordered[i]!, y0: top, y1: top + p.height });
    top += p.height + gap;
  });
  return { image: { width: w, height: h, data }, drawn };
}

/**
 * The components of the line's colour that continue it, in the band it is drawn from, chained
 * from its glyphs across gaps no wider than the grouping allows (ocr-image.ts): the pieces of
 * characters drawn in several strokes, which the detection could not take as glyphs of the line.
 * In a light Japanese typeface 台 is 厶 over 口, 前 a bar over three strokes and こ two strokes:
 * the line the detection finds then starts at the first piece of glyph height (「台所へようこそ」
 * was read 「へようこそ」) or ends before こ (「港町へよう」). Returns their labels and the extent
 * they reach across.
 */
export function continuation(
  layer: Layer,
  line: TextLine,
  band: { y0: number; y1: number },
): { labels: number[]; x0: number; x1: number } {
  const h = line.glyphHeight;
  const own = new Set(line.labels);
  const near: number[] = [];
  for (let i = 1; i < layer.boxes.length; i++) {
    const b = layer.boxes[i]!;
    if (own.has(i) || b.y0 < band.y0 || b.y1 > band.y1) continue;
    // Strokes, not specks (a speck within the extent is drawn as a mark); no wider than a
    // character of the line's band.
    if (Math.max(height(b), width(b)) < CONTINUATION_MIN * h || width(b) > band.y1 - band.y0)
      continue;
    if (colorDistance(layer.colors[i]!, line.color) > COLOR_TOLERANCE) continue;
    near.push(i);
  }
  // A piece continues the line only as part of a whole character: with the pieces above and
  // below it (its own and the line's), as high as the line's tall glyphs and standing on its
  // baseline. Bits of a texture beside a line rarely stack up so (the Game of Life did).
  const stacked = [...near, ...line.labels].map((i) => layer.boxes[i]!);
  const isCharacter = (b: Box): boolean => {
    let top = b.y0;
    let bottom = b.y1;
    for (const o of stacked) {
      const across = Math.min(b.x1, o.x1) - Math.max(b.x0, o.x0);
      if (across < 0.5 * Math.min(width(b), width(o))) continue;
      top = Math.min(top, o.y0);
      bottom = Math.max(bottom, o.y1);
    }
    return (
      bottom - top >= CHARACTER_MIN * line.capHeight &&
      Math.abs(bottom - line.box.y1) <= BASELINE_TOLERANCE * h
    );
  };
  let { x0, x1 } = line.box;
  const labels: number[] = [];
  const taken = new Uint8Array(near.length);
  for (let grew = true; grew;) {
    grew = false;
    near.forEach((i, k) => {
      if (taken[k]) return;
      const b = layer.boxes[i]!;
      const gap = Math.max(b.x0 - x1, x0 - b.x1, 0);
      if (gap > MAX_GAP * h || !isCharacter(b)) return;
      taken[k] = 1;
      labels.push(i);
      x0 = Math.min(x0, b.x0);
      x1 = Math.max(x1, b.x1);
      grew = true;
    });
  }
  return { labels, x0, x1 };
}

function renderLine(found: FrameText, line: TextLine): GrayImage {
  const layer = found.layers.get(line.polarity)!;
  const h = line.glyphHeight;
  // Room for capitals and ascenders above a lower-case line, descenders below.
  const band = {
    y0: Math.max(0, Math.round(line.box.y0 - ABOVE * h)),
    y1: Math.min(found.height, Math.round(line.box.y1 + BELOW * h)),
  };
  const more = continuation(layer, line, band);
  const crop: Box = {
    x0: Math.max(0, Math.round(more.x0 - 0.35 * h)),
    y0: band.y0,
    x1: Math.min(found.width, Math.round(more.x1 + 0.35 * h)),
    y1: band.y1,
  };
  // The line's glyphs and what continues it, and the small marks of the same colour within its
  // extent (dots, accents, a long vowel mark); nothing else is drawn.
  const keep = new Uint8Array(layer.boxes.length);
  for (const label of line.labels) keep[label] = 1;
  for (const label of more.labels) keep[label] = 1;
  for (let i = 1; i < layer.boxes.length; i++) {
    const b = layer.boxes[i]!;
    if (keep[i] || height(b) > 1.2 * h || width(b) > 1.2 * h) continue;
    if (colorDistance(layer.colors[i]!, line.color) > COLOR_TOLERANCE) continue;
    const cy = (b.y0 + b.y1) / 2;
    if (cy < crop.y0 || cy > crop.y1 || b.x0 < crop.x0 || b.x1 > crop.x1) continue;
    keep[i] = 1;
  }
  const scale = Math.min(5, Math.max(0.5, TARGET_GLYPH_HEIGHT / h));
  const ow = Math.max(1, Math.round(width(crop) * scale));
  const oh = Math.max(1, Math.round(height(crop) * scale));
  const fw = found.width;
  // A pixel of a kept component is drawn when it has the line's colour: where a glyph touches
  // something lighter or darker behind it, that part stays out.
  const at = (x: number, y: number): number => {
    const cx = Math.min(crop.x1 - 1, Math.max(crop.x0, x));
    const cy = Math.min(crop.y1 - 1, Math.max(crop.y0, y));
    const p = cy * fw + cx;
    if (!keep[layer.labels[p]!]) return 0;
    const { rgb } = found;
    const c = line.color;
    const near =
      Math.abs(rgb[3 * p]! - c[0]) <= PIXEL_TOLERANCE &&
      Math.abs(rgb[3 * p + 1]! - c[1]) <= PIXEL_TOLERANCE &&
      Math.abs(rgb[3 * p + 2]! - c[2]) <= PIXEL_TOLERANCE;
    return near ? 1 : 0;
  };
  return { width: ow, height: oh, data: drawScaled(at, crop.x0, crop.y0, ow, oh, scale) };
}

/**
 * An ow x oh picture of the ink (0-1 a pixel; it clamps its own coordinates) from (left, top)
 * on, scaled by `scale` with a bilinear sample, black where the ink reaches 0.5, white elsewhere.
 */
function drawScaled(
  ink: (x: number, y: number) => number,
  left: number,
  top: number,
  ow: number,
  oh: number,
  scale: number,
): Uint8Array {
  const data = new Uint8Array(ow * oh);
  for (let oy = 0; oy < oh; oy++) {
    const sy = top + (oy + 0.5) / scale - 0.5;
    const y0 = Math.floor(sy);
    const ty = sy - y0;
    for (let ox = 0; ox < ow; ox++) {
      const sx = left + (ox + 0.5) / scale - 0.5;
      const x0 = Math.floor(sx);
      const tx = sx - x0;
      const v =
        (ink(x0, y0) * (1 - tx) + ink(x0 + 1, y0) * tx) * (1 - ty) +
        (ink(x0, y0 + 1) * (1 - tx) + ink(x0 + 1, y0 + 1) * tx) * ty;
      data[oy * ow + ox] = v >= 0.5 ? 0 : 255;
    }
  }
  return data;
}

/** Binary PGM (P5): an image format the OCR engine reads without any codec. */
export function toPgm(img: GrayImage): Buffer {
  const header = Buffer.from(`P5\n${img.width} ${img.height}\n255\n`, 'ascii');
  return Buffer.concat([
    header,
    Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length),
  ]);
}

/** The image of a binary PGM made by toPgm. */
export function fromPgm(pgm: Buffer): GrayImage {
  const [, w, h] = /^P5\n(\d+) (\d+)\n255\n/.exec(pgm.toString('latin1', 0, 32)) ?? [];
  const width = Number(w);
  const height = Number(h);
  const data = new Uint8Array(pgm.subarray(pgm.length - width * height));
  return { width, height, data };
}

/**
 * Some of the drawn lines again, each scaled by `scale` (bilinear), stacked with the same
 * margins: the engine reads a few clean lines as nothing at the drawn size (Noto Sans CJK Bold's
 * 「港町へようこそ」 at confidence 0) and whole at another one.
 */
export function redrawLines(
  image: GrayImage,
  drawn: readonly DrawnLine[],
  scale: number,
): { image: GrayImage; drawn: DrawnLine[] } {
  const gap = Math.round((TARGET_GLYPH_HEIGHT * scale) / 2);
  const sizes = drawn.map((d) => ({
    width: Math.max(1, Math.round((image.width - 2 * MARGIN) * scale)),
    height: Math.max(1, Math.round((d.y1 - d.y0) * scale)),
  }));
  const w = Math.max(...sizes.map((s) => s.width)) + 2 * MARGIN;
  const h =
    sizes.reduce((n, s) => n + s.height, 0) + gap * Math.max(0, drawn.length - 1) + 2 * MARGIN;
  const data = new Uint8Array(w * h).fill(255);
  const out: DrawnLine[] = [];
  let top = MARGIN;
  drawn.forEach((d, i) => {
    const { width: ow, height: oh } = sizes[i]!;
    // Ink of the drawn line's rows (its pixels are 0 or 255).
    const ink = (x: number, y: number): number => {
      const cx = Math.min(image.width - 1, Math.max(0, x));
      const cy = Math.min(d.y1 - 1, Math.max(d.y0, y));
      return image.data[cy * image.width + cx]! < 128 ? 1 : 0;
    };
    const piece = drawScaled(ink, MARGIN, d.y0, ow, oh, scale);
    for (let y = 0; y < oh; y++) {
      data.set(piece.subarray(y * ow, (y + 1) * ow), (top + y) * w + MARGIN);
    }
    out.push({ line: d.line, y0: top, y1: top + oh });
    top += oh + gap;
  });
  return { image: { width: w, height: h, data }, drawn: out };
}
