// The SVG sanitiser and the declared-size check of PNG and JPEG, as pure functions.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkRasterSize, declaredSize, ImageRejected } from './image-limits.ts';
import { sanitiseSvg, SVG_MAX_DEPTH, SVG_MAX_ELEMENTS, SvgRejected } from './svg-sanitiser.ts';

const svg = (body: string, attrs = ''): string =>
  `<svg xmlns="http://www.w3.org/2000/svg"${attrs}>${body}</svg>`;

describe('sanitiseSvg', () => {
  it('keeps drawing content, drops editor metadata and style, escapes text', () => {
    const out = sanitiseSvg(
      '<svg width="2" height="2"><title>a &lt;b&gt; &#38; c</title>' +
        '<metadata><rdf:RDF><cc:Work rdf:about=""/></rdf:RDF></metadata>' +
        '<g fill="url(#g)" style="x"><path d="M0 0L1 1"/><use xlink:href="#c"/></g></svg>',
    );
    expect(out).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><title>a &#60;b&#62; &#38; c</title>' +
        '<g fill="url(#g)"><path d="M0 0L1 1"/><use xlink:href="#c"/></g></svg>',
    );
  });

  it('refuses anything that runs script or fetches, with a reason', () => {
    const hostile: [string, RegExp][] = [
      [svg('<script>alert(1)</script>'), /script content/],
      [svg('<rect/>', ' onload="alert(1)"'), /event handler/],
      [svg('<a href="&#106;avascript:x"><rect/></a>'), /script link/],
      [svg('<foreignObject><div/></foreignObject>'), /foreignObject/],
      [svg('<svg><rect/></svg>'), /another SVG inside it/],
      [svg('<set attributeName="href" to="javascript:x"/>'), /set content/],
      [svg('<animate attributeName="fill"/>'), /animate content/],
      [svg('<image href="https://evil.example/p.png"/>'), /another file or address/],
      [svg('<circle fill="url(https://evil.example/x)"/>'), /another file or address/],
      ['<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>', /DOCTYPE/],
    ];
    for (const [input, reason] of hostile) {
      expect(() => sanitiseSvg(input)).toThrow(reason);
    }
  });

  it('refuses what is not a single well-formed svg element', () => {
    for (const input of ['<html></html>', '<svg><g></svg>', '<svg></svg><svg></svg>', 'hello']) {
      expect(() => sanitiseSvg(input)).toThrow(SvgRejected);
    }
  });

  it('refuses deep nesting and too many elements, at the cap and not before', () => {
    const nested = (n: number): string => `<svg>${'<g>'.repeat(n)}${'</g>'.repeat(n)}</svg>`;
    expect(() => sanitiseSvg(nested(SVG_MAX_DEPTH - 1))).not.toThrow();
    expect(() => sanitiseSvg(nested(SVG_MAX_DEPTH))).toThrow(/more than 100 deep/);
    expect(() => sanitiseSvg(nested(60_000))).toThrow(/more than 100 deep/);
    const flat = (n: number): string => `<svg>${'<rect/>'.repeat(n)}</svg>`;
    expect(() => sanitiseSvg(flat(SVG_MAX_ELEMENTS - 1))).not.toThrow();
    expect(() => sanitiseSvg(flat(SVG_MAX_ELEMENTS))).toThrow(/more than 20000 elements/);
  });

  it('refuses an SVG whose cleaned text would exceed the image limit instead of growing it', () => {
    // Each ' is written out as &#39;: 5 bytes for 1.
    const quotes = svg(`<text>${"'".repeat(3_000)}</text>`);
    expect(() => sanitiseSvg(quotes, 10_000)).toThrow(/larger than .* MB once cleaned/);
    expect(sanitiseSvg(quotes, 20_000).length).toBeGreaterThan(15_000);
    const nineMegabytes = svg(`<text>${"'".repeat(9 * 1024 * 1024)}</text>`);
    expect(() => sanitiseSvg(nineMegabytes)).toThrow(SvgRejected);
  });

  it('checks a PNG inside the SVG like an uploaded one', () => {
    const png = (w: number, h: number): string =>
      Buffer.concat([
        Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
        Buffer.from([0, 0, w >> 8, w & 255, 0, 0, h >> 8, h & 255, 8, 0, 0, 0, 0]),
      ]).toString('base64');
    const embed = (w: number, h: number): string =>
      svg(`<image href="data:image/png;base64,${png(w, h)}"/>`);
    expect(sanitiseSvg(embed(64, 64))).toContain('data:image/png;base64,');
    expect(() => sanitiseSvg(embed(30000, 30000))).toThrow(/30000 x 30000 pixels/);
  });
});

describe('declared picture sizes', () => {
  const jpegHead = (w: number, h: number): Buffer =>
    Buffer.concat([
      Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), // SOI + JFIF APP0
      Buffer.from([0xff, 0xc0, 0, 17, 8, h >> 8, h & 255, w >> 8, w & 255, 3]),
      Buffer.alloc(9),
    ]);

  it('reads PNG IHDR and JPEG frame headers', () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(640, 0);
    ihdr.writeUInt32BE(480, 4);
    const png = Buffer.concat([
      Buffer.from('89504e470d0a1a0a0000000d', 'hex'),
      Buffer.from('IHDR'),
      ihdr,
      Buffer.alloc(4, zlib.crc32(ihdr) & 255),
    ]);
    expect(declaredSize(png)).toEqual({ width: 640, height: 480 });
    expect(declaredSize(jpegHead(1920, 1080))).toEqual({ width: 1920, height: 1080 });
  });

  it('refuses a declared decompression bomb and an unreadable header', () => {
    expect(() => checkRasterSize(jpegHead(8000, 6000))).not.toThrow();
    expect(() => checkRasterSize(jpegHead(30000, 30000))).toThrow(ImageRejected);
    expect(() => checkRasterSize(jpegHead(16385, 100))).toThrow(/16384 pixels a side/);
    expect(() => checkRasterSize(Buffer.from('ffd8ffe0', 'hex'))).toThrow(/damaged/);
  });
});
