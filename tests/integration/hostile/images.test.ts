// Hostile people images through the real API: an SVG of 60,000 nested groups, an SVG with script,
// an SVG inside an SVG, a PNG declaring 30000 x 30000 pixels. Each answers 422 in the error
// format with its reason, the video's earlier people stay, and the pictures are checked in a
// worker thread, so /api/health answers while a heavy request is being checked.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePool } from '../../../server/src/routes/uploads/image-pool.ts';
import { quoteSvg } from '../../support/hostile-files.ts';
import { jpegImage, pngImage } from '../../support/images.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createVideo } from '../../support/videos.ts';

let server: TestServer;
let token: string;
let videoId: string;

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  await server.createUser({ email: 'eve@example.com', password: 'password1' });
  token = await server.login('eve@example.com', 'password1');
  videoId = (await createVideo(server, token, { filename: 'a.mp4' })).id;
});
afterAll(() => server?.close());

/** The PNG with a private chunk (`pdDg`) of zeros before its end, `bytes` long in all. */
function withPadding(png: Buffer, bytes: number): Buffer {
  const iend = png.length - 12;
  const data = Buffer.alloc(bytes - png.length - 12);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write('pdDg', 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([png.subarray(0, iend), head, data, crc, png.subarray(iend)]);
}

type Person = [name: string, body: Buffer | string, filename: string];
type Answer = { status: number; body: { detail?: unknown } };

async function upload(people: Person[]): Promise<Answer> {
  const form = new FormData();
  for (const [name] of people) form.append('names[]', name);
  for (const [, body, filename] of people) form.append('images[]', new Blob([body]), filename);
  const res = await fetch(`${server.url}/api/videos/${videoId}/upload-people-images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function storedNames(): Promise<string[]> {
  const rows = await server.ctx.db.query<{ name: string }>(
    'SELECT name FROM video_people WHERE video_id = $1 ORDER BY position',
    [videoId],
  );
  return rows.map((r) => r.name);
}

/** 422 in the API's error format, naming the image and saying why. */
function expectRefused(res: Answer, index: number, reason: RegExp): void {
  expect(res.status).toBe(422);
  expect(res.body.detail).toEqual([
    { loc: ['body', 'images', index], msg: expect.stringMatching(reason), type: 'value_error' },
  ]);
}

const nestedGroups = (n: number): string =>
  `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(n)}<rect/>${'</g>'.repeat(n)}</svg>`;

describe('hostile people images', () => {
  it('accepts real pictures, then keeps them when a hostile set is refused', async () => {
    const ok = await upload([
      ['Ann', pngImage(64, 48), 'ann.png'],
      ['Bob', await jpegImage(), 'bob.jpg'],
      ['Cy', '<svg viewBox="0 0 2 2"><circle r="1"/></svg>', 'cy.svg'],
    ]);
    expect(ok.status).toBe(200);
    const bomb = await upload([
      ['Ann', pngImage(64, 48), 'ann.png'],
      ['Dee', pngImage(30000, 30000, 1), 'dee.png'],
    ]);
    expectRefused(bomb, 1, /30000 x 30000 pixels; at most 50 megapixels/);
    expect(await storedNames()).toEqual(['Ann', 'Bob', 'Cy']);
  });

  it('refuses an SVG of 60,000 nested groups quickly enough to matter, with the reason', async () => {
    const svg = nestedGroups(60_000);
    expect(svg.length).toBeGreaterThan(400_000);
    expectRefused(await upload([['Eve', svg, 'eve.svg']]), 0, /nests elements more than 100 deep/);
  });

  it('refuses an SVG with script, an SVG inside an SVG, and a damaged PNG', async () => {
    const script = '<svg><rect onload="alert(1)"/><script>alert(2)</script></svg>';
    expectRefused(await upload([['Eve', script, 'e.svg']]), 0, /event handler \(script\)/);
    const nested = '<svg><svg><rect/></svg></svg>';
    expectRefused(await upload([['Eve', nested, 'e.svg']]), 0, /another SVG inside it/);
    const truncated = pngImage(64, 48).subarray(0, 20);
    expectRefused(await upload([['Eve', truncated, 'e.png']]), 0, /damaged/);
    expect(await storedNames()).toEqual(['Ann', 'Bob', 'Cy']);
  });

  it('refuses SVGs that would grow past the image limit once cleaned (escaped quotes)', async () => {
    const quotes = quoteSvg(9 * 1024 * 1024);
    const res = await upload([
      ['Ann', pngImage(64, 48), 'ann.png'],
      ['Qu', quotes, 'q.svg'],
      ['Qv', quotes, 'v.svg'],
    ]);
    expectRefused(res, 1, /^The SVG would be larger than 10 MB once cleaned/);
    expect(await storedNames()).toEqual(['Ann', 'Bob', 'Cy']);
  });

  it('stops reading a set of pictures at the first over the budget, leaving no temporary file', async () => {
    // 9.5 MB PNGs (a small picture with a private chunk of padding): the eleventh is over 100 MB,
    // and four more follow it that the server must not wait for.
    const padded = (n: number): Buffer => withPadding(pngImage(64, 48), 9.5 * 1024 * 1024 + n);
    const form = new FormData();
    for (let i = 0; i < 15; i++) form.append('names[]', `P${i}`);
    for (let i = 0; i < 15; i++) form.append('images[]', new Blob([padded(i)]), `p${i}.png`);
    const encoded = new Response(form);
    let sent = 0;
    const counted = encoded.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          sent += chunk.byteLength;
          out.enqueue(chunk);
        },
      }),
    );
    const res = await fetch(`${server.url}/api/videos/${videoId}/upload-people-images`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': encoded.headers.get('content-type')!,
      },
      body: counted,
      duplex: 'half',
    } as RequestInit);
    const sentAtAnswer = sent;
    expectRefused(
      { status: res.status, body: (await res.json()) as Answer['body'] },
      10,
      /^The pictures together must not exceed 100MB/,
    );
    // Answered before the last two pictures were sent (all 142 MB used to be stored first).
    expect(sentAtAnswer).toBeLessThan(13 * 9.5 * 1024 * 1024);
    expect(fs.readdirSync(path.join(server.dataDir, 'tmp'))).toEqual([]);
    expect(await storedNames()).toEqual(['Ann', 'Bob', 'Cy']);
  });

  it(
    'checks pictures in a worker thread: health answers while a heavy set is checked',
    { timeout: 120_000 },
    async () => {
      // SVGs of about 3 MB (long path data, under the element cap): a second or more of parsing.
      const path = `<path d="${'M1 2L3 4'.repeat(120)}"/>`;
      const heavy = `<svg>${path.repeat(3_000)}</svg>`;
      expect(heavy.length).toBeGreaterThan(2_500_000);
      const people: Person[] = Array.from({ length: 6 }, (_, i) => [`P${i}`, heavy, `p${i}.svg`]);
      const pending = upload(people);
      const pool = imagePool();
      while (pool.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
      const started = performance.now();
      const health = await server.call('GET', '/api/health');
      const tookMs = performance.now() - started;
      // Answered while a picture was still being checked off the main thread.
      expect(health.status).toBe(200);
      expect(pool.inFlight).toBeGreaterThan(0);
      console.log(`/api/health answered in ${tookMs.toFixed(0)} ms during the image check`);
      expect((await pending).status).toBe(200);
      expect(await storedNames()).toHaveLength(6);
    },
  );
});
