// Where a frame shows text, found without the OCR engine: pixels clearly lighter (or darker)
// than their neighbourhood form connected components; components of glyph size that sit side by
// side at the same height form lines. Only those lines are drawn, black on white and scaled to
// one glyph height, for the OCR engine: busy backgrounds never reach it, so it reads faster and
// invents less. A frame without such lines is not read at all.

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, row after row. */
  data: Uint8Array;
}

/** A decoded frame: red, green and blue bytes per pixel, row after row. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Rgb = readonly [number, number, number];

/** How far apart two colours are: the largest difference of one channel. */
export const colorDistance = (a: Rgb, b: Rgb): number =>
  Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));

/**
 * Light text on a darker picture (titles, subtitles), dark text on a lighter one (slides), or
 * white text on a bright colour (yellow, green, cyan are as light as white, but not as white).
 */
export type Polarity = 'light' | 'dark' | 'white';
/** Of two lines as likely, the one seen by luma wins (a plain, even order). */
const RANK: Record<Polarity, number> = { light: 0, white: 1, dark: 2 };

export interface Box {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  y1: number;
}

export interface TextLine {
  polarity: Polarity;
  /** All its glyphs across; its typical glyph's top and bottom. */
  box: Box;
  /** Glyph-sized components in the line (a wide component counts as several). */
  glyphs: number;
  /** Median height of its glyphs, px. */
  glyphHeight: number;
  /**
   * Height of its taller glyphs (capitals, ascenders, descenders; the 80th percentile), px: the
   * size a reader sees, which does not depend on how many lower-case letters the line has.
   */
  capHeight: number;
  /** Mean colour of its glyphs: text is drawn in one colour. */
  color: Rgb;
  /** Component labels of its glyphs (in the layer of its polarity). */
  labels: number[];
}

/** The connected components of one polarity's mask. */
export interface Layer {
  /** Component label of each pixel, 0 for none. */
  labels: Int32Array;
  /** Per label (index 0 unused): bounding box and mean colour. */
  boxes: Box[];
  colors: Rgb[];
}

/** What a frame's text detection found, kept for drawing the lines afterwards. */
export interface FrameText {
  lines: TextLine[];
  layers: Map<Polarity, Layer>;
  /** The frame's pixels (RGB). */
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** A pixel of text differs from the mean of its neighbourhood by at least this much. */
const CONTRAST = 36;
const LIGHT_MIN = 150;
const DARK_MAX = 110;
/** Glyphs of one line differ in mean colour by no more than this (per channel). */
export const COLOR_TOLERANCE = 40;
/** Lines kept per frame, most glyphs first (a frame rarely shows more). */
const MAX_LINES = 10;
/**
 * A line has at least this many separate glyphs: shorter rows of shapes occur by chance in
 * textures (a word of three letters or less, alone on screen, is missed).
 */
const MIN_PARTS = 4;

export const width = (b: Box): number => b.x1 - b.x0;
export const height = (b: Box): number => b.y1 - b.y0;

/** Luma (BT.601) of each pixel. */
export function toGray(img: RgbImage): GrayImage {
  const data = new Uint8Array(img.width * img.height);
  for (let p = 0; p < data.length; p++) {
    data[p] = (77 * img.data[3 * p]! + 150 * img.data[3 * p + 1]! + 29 * img.data[3 * p + 2]!) >> 8;
  }
  return { width: img.width, height: img.height, data };
}

/** Whiteness of each pixel: its weakest channel (white is high, any saturated colour is low). */
export function toWhiteness(img: RgbImage): GrayImage {
  const data = new Uint8Array(img.width * img.height);
  for (let p = 0; p < data.length; p++) {
    data[p] = Math.min(img.data[3 * p]!, img.data[3 * p + 1]!, img.data[3 * p + 2]!);
  }
  return { width: img.width, height: img.height, data };
}

/**
 * Working arrays of one size, reused from frame to frame: a frame's detection otherwise made
 * about 6 MB of short-lived arrays (the integral image, the fill stack), and at 36 frames a video
 * that churn held some 50 MB of the worker's peak memory in the allocator. Only for arrays that
 * do not outlive the (synchronous) call that takes them.
 */
const scratch: { sums?: Float64Array; stack?: Int32Array } = {};

function scratchSums(length: number): Float64Array {
  if (scratch.sums?.length !== length) scratch.sums = new Float64Array(length);
  return scratch.sums;
}

function scratchStack(length: number): Int32Array {
  if (scratch.stack?.length !== length) scratch.stack = new Int32Array(length);
  return scratch.stack;
}

/**
 * Pixels of one channel that stand out from the mean of their neighbourhood (an integral image
 * gives each box mean in four reads): lighter ones, and darker ones when asked.
 */
export function textMasks(
  img: GrayImage,
  withDark = true,
): { light: Uint8Array; dark: Uint8Array } {
  const { width: w, height: h, data } = img;
  const r = Math.max(6, Math.round(h / 24));
  const iw = w + 1;
  // Row 0 and column 0 are zero (a reused array may hold another shape's values there); every
  // other cell is written before it is read.
  const sums = scratchSums(iw * (h + 1));
  sums.fill(0, 0, iw);
  for (let y = 0; y < h; y++) {
    sums[(y + 1) * iw] = 0;
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += data[y * w + x]!;
      sums[(y + 1) * iw + x + 1] = sums[y * iw + x + 1]! + row;
    }
  }
  const light = new Uint8Array(w * h);
  const dark = new Uint8Array(withDark ? w * h : 0);
  const darkMax = withDark ? DARK_MAX : -1;
  for (let y = 0; y < h; y++) {
    const ya = Math.max(0, y - r);
    const yb = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const v = data[y * w + x]!;
      if (v < LIGHT_MIN && v > darkMax) continue;
      const xa = Math.max(0, x - r);
      const xb = Math.min(w, x + r + 1);
      const sum =
        sums[yb * iw + xb]! - sums[ya * iw + xb]! - sums[yb * iw + xa]! + sums[ya * iw + xa]!;
      const diff = v - sum / ((yb - ya) * (xb - xa));
      if (v >= LIGHT_MIN && diff >= CONTRAST) light[y * w + x] = 1;
      else if (v <= darkMax && -diff >= CONTRAST) dark[y * w + x] = 1;
    }
  }
  return { light, dark };
}

/** 8-connected components of a mask, with each one's box, area and mean colour. */
export function components(mask: Uint8Array, img: RgbImage): Layer & { areas: number[] } {
  const { width: w, height: h, data } = img;
  const labels = new Int32Array(w * h);
  const boxes: Box[] = [{ x0: 0, y0: 0, x1: 0, y1: 0 }];
  const areas: number[] = [0];
  const colors: Rgb[] = [[0, 0, 0]];
  const stack = scratchStack(w * h);
  let next = 1;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    const box = { x0: w, y0: h, x1: 0, y1: 0 };
    let area = 0;
    let r = 0;
    let g = 0;
    let b = 0;
    let top = 0;
    stack[top++] = start;
    labels[start] = next;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % w;
      const y = (p - x) / w;
      area++;
      r += data[3 * p]!;
      g += data[3 * p + 1]!;
      b += data[3 * p + 2]!;
      if (x < box.x0) box.x0 = x;
      if (y < box.y0) box.y0 = y;
      if (x + 1 > box.x1) box.x1 = x + 1;
      if (y + 1 > box.y1) box.y1 = y + 1;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= w) continue;
          const q = ny * w + nx;
          if (mask[q] && !labels[q]) {
            labels[q] = next;
            stack[top++] = q;
          }
        }
      }
    }
    boxes.push(box);
    areas.push(area);
    colors.push([r / area, g / area, b / area]);
    next++;
  }
  return { labels, boxes, areas, colors };
}

/** How many glyphs a component looks like, 0 when it is no glyph (speck, blob, bar, frame). */
function glyphCount(box: Box, area: number, imgHeight: number): number {
  const bw = width(box);
  const bh = height(box);
  if (bh < Math.max(6, imgHeight / 60) || bh > imgHeight / 4) return 0;
  if (bw > bh * 8 || area < 12) return 0;
  const fill = area / (bw * bh);
  // A solid block is no glyph; a solid narrow bar is (I, l, 1, the stem of an i). Touching
  // letters make wide components, but never a mostly solid one (a band, an edge of a shape).
  if (fill < 0.08 || (fill > 0.92 && bw > 0.4 * bh)) return 0;
  if (bw > 2 * bh && fill > 0.7) return 0;
  return Math.max(1, Math.round(bw / bh));
}

const percentile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? 0;
};
const median = (xs: number[]): number => percentile(xs, 0.5);

interface Glyph {
  label: number;
  box: Box;
  /** How many glyphs it looks like (touching letters form one component). */
  n: number;
  color: Rgb;
}

interface Building {
  box: Box;
  parts: Glyph[];
  glyphs: number;
  /** Sum of its glyphs' colours. */
  sum: [number, number, number];
}

const meanColor = (l: Building): Rgb => [
  l.sum[0] / l.parts.length,
  l.sum[1] / l.parts.length,
  l.sum[2] / l.parts.length,
];

/**
 * Text, not texture: most glyphs of a line share its height (capitals and lower case letters
 * differ by less than the margin) and stand on the same baseline.
 */
function looksLikeText(line: Building): boolean {
  if (line.parts.length < MIN_PARTS) return false;
  if (width(line.box) < height(line.box)) return false;
  const boxes = line.parts.map((g) => g.box);
  const mh = median(boxes.map(height));
  const mb = median(boxes.map((b) => b.y1));
  const even = boxes.filter((b) => Math.abs(height(b) - mh) <= 0.35 * mh).length;
  const based = boxes.filter((b) => Math.abs(b.y1 - mb) <= 0.2 * mh).length;
  return even >= 0.6 * boxes.length && based >= 0.6 * boxes.length;
}

/** Glyphs of one colour side by side at the same height, left to right, become lines. */
function groupLines(glyphs: Glyph[], polarity: Polarity): TextLine[] {
  const sorted = [...glyphs].sort((a, b) => a.box.x0 - b.box.x0);
  const open: Building[] = [];
  for (const g of sorted) {
    const gh = height(g.box);
    let best: Building | undefined;
    let bestGap = Infinity;
    for (const line of open) {
      const lh = median(line.parts.map((p) => height(p.box)));
      if (gh > lh * 2.2 || gh < lh / 2.2) continue;
      if (colorDistance(g.color, meanColor(line)) > COLOR_TOLERANCE) continue;
      const overlap = Math.min(line.box.y1, g.box.y1) - Math.max(line.box.y0, g.box.y0);
      if (overlap < 0.5 * Math.min(gh, lh)) continue;
      const gap = g.box.x0 - line.box.x1;
      if (gap > 1.5 * lh || gap >= bestGap) continue;
      best = line;
      bestGap = gap;
    }
    if (best) {
      best.box = {
        x0: Math.min(best.box.x0, g.box.x0),
        y0: Math.min(best.box.y0, g.box.y0),
        x1: Math.max(best.box.x1, g.box.x1),
        y1: Math.max(best.box.y1, g.box.y1),
      };
      best.parts.push(g);
      best.glyphs += g.n;
      for (const c of [0, 1, 2] as const) best.sum[c] += g.color[c];
    } else {
      open.push({ box: { ...g.box }, parts: [g], glyphs: g.n, sum: [...g.color] });
    }
  }
  return open.filter(looksLikeText).map((l) => ({
    polarity,
    // Across, all its glyphs; up and down, its typical glyph (a taller blob that touches one
    // letter does not stretch the line).
    box: {
      x0: l.box.x0,
      x1: l.box.x1,
      y0: median(l.parts.map((p) => p.box.y0)),
      y1: median(l.parts.map((p) => p.box.y1)),
    },
    glyphs: l.glyphs,
    glyphHeight: median(l.parts.map((p) => height(p.box))),
    capHeight: percentile(
      l.parts.map((p) => height(p.box)),
      0.8,
    ),
    color: meanColor(l),
    labels: l.parts.map((p) => p.label),
  }));
}

const area = (b: Box): number => width(b) * height(b);
const intersection = (a: Box, b: Box): number =>
  Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) *
  Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));

/**
 * Lines of text of every polarity, the likeliest (most glyphs) first. Where lines of two
 * polarities cover the same place (the fill and the outline of outlined letters, white letters
 * seen by luma and by whiteness), only the likelier one is kept.
 */
export function findText(img: RgbImage): FrameText {
  const layers: FrameText['layers'] = new Map();
  const all: TextLine[] = [];
  const luma = textMasks(toGray(img));
  const masks: Record<Polarity, Uint8Array> = {
    light: luma.light,
    dark: luma.dark,
    white: textMasks(toWhiteness(img), false).light,
  };
  for (const polarity of ['light', 'dark', 'white'] as const) {
    const { labels, boxes, areas, colors } = components(masks[polarity], img);
    layers.set(polarity, { labels, boxes, colors });
    const glyphs: Glyph[] = [];
    for (let label = 1; label < boxes.length; label++) {
      const n = glyphCount(boxes[label]!, areas[label]!, img.height);
      if (n > 0) glyphs.push({ label, box: boxes[label]!, n, color: colors[label]! });
    }
    all.push(...groupLines(glyphs, polarity));
  }
  all.sort((a, b) => b.glyphs - a.glyphs || RANK[a.polarity] - RANK[b.polarity]);
  const lines: TextLine[] = [];
  for (const line of all) {
    const covered = lines.some(
      (kept) =>
        kept.polarity !== line.polarity &&
        intersection(kept.box, line.box) > 0.3 * Math.min(area(kept.box), area(line.box)),
    );
    if (!covered) lines.push(line);
    if (lines.length === MAX_LINES) break;
  }
  return { lines, layers, rgb: img.data, width: img.width, height: img.height };
}

/** How much text a frame seems to show: its glyphs in lines. 0 means nothing to read. */
export const textScore = (found: FrameText): number =>
  found.lines.reduce((n, l) => n + l.glyphs, 0);
