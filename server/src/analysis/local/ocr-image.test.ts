// Text detection and drawing on synthetic frames: glyph-like shapes in a row are a line, texture,
// blobs and bands are not; a line is drawn black on white at the target glyph height, without
// what touches it in another colour.
import { describe, expect, it } from 'vitest';
import { findText, textScore, type Rgb, type RgbImage } from './ocr-image.ts';
import {
  continuation,
  fromPgm,
  redrawLines,
  renderLines,
  TARGET_GLYPH_HEIGHT,
  toPgm,
} from './ocr-render.ts';

const W = 320;
const H = 180;

function frame(background: (x: number, y: number) => Rgb = () => [40, 60, 90]): RgbImage {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) data.set(background(x, y), 3 * (y * W + x));
  }
  return { width: W, height: H, data };
}

function fill(img: RgbImage, x0: number, y0: number, w: number, h: number, c: Rgb): void {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) img.data.set(c, 3 * (y * img.width + x));
  }
}

/** Letter-like shapes, 16 px tall: an "O" (a ring), an "I" (a bar) and an "L". */
function word(
  img: RgbImage,
  x: number,
  y: number,
  c: Rgb,
  count = 6,
  hole: Rgb = [40, 60, 90],
): void {
  for (let i = 0; i < count; i++) {
    const left = x + i * 14;
    const shape = i % 3;
    if (shape === 0) {
      fill(img, left, y, 10, 16, c);
      fill(img, left + 3, y + 3, 4, 10, hole);
    } else if (shape === 1) {
      fill(img, left + 3, y, 4, 16, c);
    } else {
      fill(img, left, y, 3, 16, c);
      fill(img, left, y + 13, 10, 3, c);
    }
  }
}

describe('findText', () => {
  it('finds a row of light glyphs as one line, and dark glyphs on a light band as another', () => {
    const img = frame();
    word(img, 40, 30, [250, 250, 250]);
    fill(img, 30, 100, 200, 40, [230, 230, 230]);
    word(img, 50, 112, [20, 20, 20], 9, [230, 230, 230]);
    const found = findText(img);
    expect(found.lines.map((l) => [l.polarity, l.glyphs, l.glyphHeight])).toEqual([
      ['dark', 9, 16],
      ['light', 6, 16],
    ]);
    expect(found.lines[1]!.box).toMatchObject({ x0: 40, y0: 30, y1: 46 });
    expect(textScore(found)).toBe(15);
  });

  it('finds nothing in a plain picture, a big bright blob, a band or a lone glyph', () => {
    const img = frame((x) => [x % 256, 80, 120]);
    fill(img, 100, 40, 90, 90, [255, 255, 255]);
    fill(img, 0, 150, W, 6, [255, 255, 255]);
    word(img, 250, 20, [255, 255, 255], 1);
    expect(findText(img).lines).toEqual([]);
  });

  it('finds white glyphs on a colour as light as white by their whiteness', () => {
    const yellow: Rgb = [255, 255, 60];
    const img = frame(() => yellow);
    word(img, 40, 30, [255, 255, 255], 6, yellow);
    expect(findText(img).lines.map((l) => [l.polarity, l.glyphs])).toEqual([['white', 6]]);
  });

  it('does not join shapes of another colour to a line', () => {
    const img = frame();
    word(img, 40, 30, [250, 250, 250]);
    // A yellow shape of glyph size right after the word.
    fill(img, 126, 30, 10, 16, [250, 250, 0]);
    fill(img, 129, 33, 4, 10, [40, 60, 90]);
    const [line] = findText(img).lines;
    expect(line!.box.x1).toBe(40 + 5 * 14 + 10);
  });
});

describe('findText on frames one after the other', () => {
  const sized = (w: number, h: number, c: Rgb): RgbImage => {
    const data = new Uint8Array(w * h * 3);
    for (let p = 0; p < w * h; p++) data.set(c, 3 * p);
    return { width: w, height: h, data };
  };

  it('finds the same lines in a frame whatever frames came before it', () => {
    // The working arrays are kept from frame to frame. A 180x320 frame after a 320x180 one reuses
    // an integral image of the same length, whose zero edges fall elsewhere.
    const tall = (): RgbImage => {
      const img = sized(180, 320, [200, 200, 200]);
      word(img, 2, 150, [20, 20, 20], 6, [200, 200, 200]);
      return img;
    };
    findText(sized(100, 50, [0, 0, 0]));
    const first = findText(tall()).lines;
    expect(first.length).toBeGreaterThan(0);
    expect(first[0]!.box.y0).toBeGreaterThanOrEqual(150);
    expect(first[0]!.box.y1).toBeLessThanOrEqual(166);
    findText(sized(320, 180, [255, 255, 255]));
    expect(findText(tall()).lines).toEqual(first);
  });
});

describe('renderLines', () => {
  it('draws each line black on white at the target glyph height, stacked in reading order', () => {
    const img = frame();
    word(img, 40, 120, [250, 250, 250]);
    word(img, 60, 20, [250, 250, 250], 4);
    const found = findText(img);
    const { image, drawn } = renderLines(found, found.lines);
    // Top line first.
    expect(drawn.map((d) => d.line.box.y0)).toEqual([20, 120]);
    for (const d of drawn) {
      // The crop holds the glyph plus room above and below, scaled by 36 / 16.
      expect(d.y1 - d.y0).toBeGreaterThanOrEqual(TARGET_GLYPH_HEIGHT);
      expect(d.y1 - d.y0).toBeLessThan(TARGET_GLYPH_HEIGHT * 2.2);
    }
    const values = new Set(image.data);
    expect([...values].sort((a, b) => a - b)).toEqual([0, 255]);
    const black = image.data.filter((v) => v === 0).length;
    expect(black).toBeGreaterThan(0);
    expect(toPgm(image).subarray(0, 2).toString()).toBe('P5');
  });

  it('draws chosen lines again at another scale, for a second read', () => {
    const img = frame();
    word(img, 40, 120, [250, 250, 250]);
    word(img, 60, 20, [250, 250, 250], 4);
    const found = findText(img);
    const first = renderLines(found, found.lines);
    // The PGM the engine was given is the image drawn.
    expect(fromPgm(toPgm(first.image))).toEqual(first.image);
    const again = redrawLines(fromPgm(toPgm(first.image)), [first.drawn[1]!], 0.7);
    expect(again.drawn.map((d) => d.line)).toEqual([first.drawn[1]!.line]);
    const [line] = again.drawn;
    const drawnHeight = first.drawn[1]!.y1 - first.drawn[1]!.y0;
    expect(line!.y1 - line!.y0).toBe(Math.round(drawnHeight * 0.7));
    // Its ink is that line's, scaled: about 0.7 x 0.7 of it, and still black on white.
    const ink = (data: Uint8Array): number => data.filter((v) => v === 0).length;
    const lineInk = ink(
      first.image.data.subarray(
        first.drawn[1]!.y0 * first.image.width,
        first.drawn[1]!.y1 * first.image.width,
      ),
    );
    expect(ink(again.image.data) / lineInk).toBeGreaterThan(0.4);
    expect(ink(again.image.data) / lineInk).toBeLessThan(0.6);
    expect([...new Set(again.image.data)].sort((a, b) => a - b)).toEqual([0, 255]);
  });

  it('draws the strokes of its colour that continue a line: a wide piece over its first glyph, two bars after its last', () => {
    const white: Rgb = [250, 250, 250];
    const img = frame();
    word(img, 80, 60, white);
    // A character in two pieces before the word (as 台 is 厶 over 口): a hollow piece wider
    // than a glyph above a small ring that stands on the line's baseline.
    fill(img, 56, 57, 22, 7, white);
    fill(img, 58, 59, 18, 3, [40, 60, 90]);
    fill(img, 60, 66, 14, 10, white);
    fill(img, 63, 69, 8, 4, [40, 60, 90]);
    // After the word, two flat bars one above the other (as こ is): specks, not glyphs.
    const end = 80 + 5 * 14 + 10;
    fill(img, end + 8, 62, 12, 3, white);
    fill(img, end + 7, 71, 14, 3, white);
    // Beyond the widest gap, right beside it in another colour, a lone bar no character's
    // height (a bit of texture): none continues it.
    fill(img, end + 70, 64, 12, 3, white);
    fill(img, end + 30, 70, 8, 4, white);
    fill(img, 40, 66, 12, 10, [250, 250, 0]);
    const found = findText(img);
    const [line] = found.lines;
    expect(line!.box.x0).toBe(60);
    const layer = found.layers.get(line!.polarity)!;
    const labelAt = (x: number, y: number): number => layer.labels[y * W + x]!;
    const more = continuation(layer, line!, { y0: 51, y1: 83 });
    expect(more.labels.sort((a, b) => a - b)).toEqual(
      [labelAt(56, 57), labelAt(end + 8, 62), labelAt(end + 7, 71)].sort((a, b) => a - b),
    );
    expect([more.x0, more.x1]).toEqual([56, end + 21]);
  });
});
