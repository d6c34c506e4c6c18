// The web app manifest (issue 8, install): the fields browsers need to offer installation, and
// the icons and store screenshots it names, checked against the files themselves.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';

const PUBLIC = path.resolve(import.meta.dirname, '..', '..', 'public');

interface ImageResource {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
  form_factor?: string;
  label?: string;
}

const manifest = JSON.parse(
  fs.readFileSync(path.join(PUBLIC, 'manifest.webmanifest'), 'utf8'),
) as Record<string, unknown> & { icons: ImageResource[]; screenshots: ImageResource[] };

interface Png {
  width: number;
  height: number;
  /** RGBA of a pixel (8-bit RGB or RGBA, non-interlaced files only). */
  pixel(x: number, y: number): [number, number, number, number];
}

function readPng(src: string): Png {
  const bytes = fs.readFileSync(path.join(PUBLIC, src));
  expect(bytes.subarray(0, 8).toString('hex'), `${src} is a PNG`).toBe('89504e470d0a1a0a');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [depth, colour, , , interlace] = bytes.subarray(24, 29);
  expect({ depth, interlace, rgb: colour === 2 || colour === 6 }).toEqual({
    depth: 8,
    interlace: 0,
    rgb: true,
  });
  const channels = colour === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT') {
      idat.push(bytes.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows: Uint8Array[] = [];
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const prev = rows[y - 1] ?? new Uint8Array(stride);
    const row = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
      row[i] = (line[i]! + predictor) & 0xff;
    }
    rows.push(row);
  }
  return {
    width,
    height,
    pixel(x, y) {
      const at = x * channels;
      const row = rows[y]!;
      return [row[at]!, row[at + 1]!, row[at + 2]!, channels === 4 ? row[at + 3]! : 255];
    },
  };
}

const hex = (rgb: number[]) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

describe('web app manifest', () => {
  it('names the app and how it opens when installed', () => {
    expect(manifest).toMatchObject({
      name: 'Video Archive',
      short_name: 'Archive',
      lang: 'en',
      start_url: '/video',
      scope: '/',
      display: 'standalone',
    });
    expect(String(manifest.description).length).toBeGreaterThan(20);
    expect((manifest.short_name as string).length).toBeLessThanOrEqual(12); // fits under an icon
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    // The page's own theme colour matches, so the title bar does not change colour on load.
    const html = fs.readFileSync(path.resolve(PUBLIC, '..', 'index.html'), 'utf8');
    expect(html).toContain(`<meta name="theme-color" content="${String(manifest.theme_color)}" />`);
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
  });

  it('has 192 and 512 px icons, plain and maskable, whose files have those sizes', () => {
    const png = manifest.icons.filter((icon) => icon.type === 'image/png');
    for (const purpose of ['any', 'maskable']) {
      const sizes = png.filter((icon) => (icon.purpose ?? 'any') === purpose).map((i) => i.sizes);
      expect(sizes, purpose).toEqual(expect.arrayContaining(['192x192', '512x512']));
    }
    for (const icon of png) {
      const image = readPng(icon.src);
      expect(`${image.width}x${image.height}`, icon.src).toBe(icon.sizes);
      if (icon.purpose === 'maskable') {
        // Full bleed: a launcher's mask (circle, squircle) must never reveal a transparent corner.
        for (const [x, y] of [
          [0, 0],
          [image.width - 1, 0],
          [0, image.height - 1],
        ]) {
          expect(image.pixel(x!, y!)[3], `${icon.src} corner alpha`).toBe(255);
        }
      }
    }
    const background = readPng('/icons/icon-maskable-512.png').pixel(0, 0).slice(0, 3);
    expect(hex(background)).toBe(String(manifest.theme_color).toLowerCase());
  });

  it('has a narrow and a wide screenshot, each file of the size it declares', () => {
    expect(manifest.screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of manifest.screenshots) {
      expect(shot.type).toBe('image/png');
      expect(shot.label, shot.src).toBeTruthy();
      const image = readPng(shot.src);
      expect(`${image.width}x${image.height}`, shot.src).toBe(shot.sizes);
      const [width, height] = shot.sizes.split('x').map(Number) as [number, number];
      expect(shot.form_factor === 'narrow' ? height > width : width > height, shot.src).toBe(true);
    }
  });
});
