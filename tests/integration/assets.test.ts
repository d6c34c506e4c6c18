// Asset serving: signed and expiring paths, team isolation, ranges, headers and traversal.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAssetPath } from '../../server/src/assets/signing.ts';
import { seedCompletedVideo, seedMedia, teamOf, type SeededVideo } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token: string;
let otherToken: string;
let teamId: string;
let video: SeededVideo;
let other: SeededVideo;
let media: { jpeg: Buffer; mp4: Buffer };
let detail: {
  video_thumbnail_path: string;
  video_path: string;
  output_data: { scenes: { thumbnail: string; video_path: string; frames: { path: string }[] }[] };
};

const PASSWORD = 'secret123';

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.createUser({ email: 'a@example.com', password: PASSWORD, team: 'A' });
  const b = await server.createUser({ email: 'b@example.com', password: PASSWORD, team: 'B' });
  teamId = await teamOf(server.ctx, a);
  token = await server.login('a@example.com', PASSWORD);
  otherToken = await server.login('b@example.com', PASSWORD);
  media = await seedMedia();
  video = await seedCompletedVideo(server.ctx, {
    teamId,
    scenes: [{ description: 'one', frames: 2 }],
    index: false,
  });
  other = await seedCompletedVideo(server.ctx, {
    teamId: await teamOf(server.ctx, b),
    index: false,
  });
  detail = (await server.call('GET', `/api/videos/${video.id}`, { token })).body;
});

afterAll(async () => {
  await server?.close();
});

const fetchAsset = (p: string, init?: RequestInit) => fetch(`${server.url}${p}`, init);
const output = (p: string) => `/assets/data/output/${p}`;
const input = (p: string) => `/assets/data/input/${p}`;

/** A raw request: fetch would normalise dot segments before they reach the server. */
function rawGet(p: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${p}`, { method: 'GET', path: p }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('latin1')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('signed asset paths', () => {
  it('serve the thumbnail, frames and clip of the API answer with the right types', async () => {
    const thumb = await fetchAsset(output(detail.video_thumbnail_path));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(thumb.headers.get('x-content-type-options')).toBe('nosniff');
    expect(thumb.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await thumb.arrayBuffer()).equals(media.jpeg)).toBe(true);

    const frame = await fetchAsset(output(detail.output_data.scenes[0]!.frames[1]!.path));
    expect(frame.status).toBe(200);
    const clip = await fetchAsset(output(detail.output_data.scenes[0]!.video_path));
    expect(clip.headers.get('content-type')).toBe('video/mp4');
    expect(Number(clip.headers.get('content-length'))).toBe(media.mp4.length);
  });

  it('serve an input key under the input root, and under the other root too', async () => {
    expect(detail.video_path.startsWith(`${video.id}/source.mp4?`)).toBe(true);
    expect((await fetchAsset(input(detail.video_path))).status).toBe(200);
    // The signature names the real key, so a client using the other prefix still works.
    expect((await fetchAsset(output(detail.video_path))).status).toBe(200);
  });

  it('are stable within a time bucket and cached privately for their remaining life', async () => {
    const again = (await server.call('GET', `/api/videos/${video.id}`, { token })).body;
    expect(again.video_thumbnail_path).toBe(detail.video_thumbnail_path);
    const res = await fetchAsset(output(detail.video_thumbnail_path));
    const exp = Number(new URL(`http://x/${detail.video_thumbnail_path}`).searchParams.get('exp'));
    const maxAge = Number(
      /private, max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1],
    );
    const remaining = exp - Math.floor(Date.now() / 1000);
    expect(Math.abs(maxAge - remaining)).toBeLessThanOrEqual(2);
    expect(maxAge).toBeGreaterThan(60 * 60);
  });

  it('refuse a tampered signature, expiry or key with 403', async () => {
    const p = detail.video_thumbnail_path;
    const [file, query] = p.split('?') as [string, string];
    const params = new URLSearchParams(query);
    const sig = params.get('sig')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const cases = [
      `${file}?exp=${params.get('exp')}&sig=${flipped}`,
      `${file}?exp=${Number(params.get('exp')) + 3600}&sig=${sig}`,
      `${file}?exp=${params.get('exp')}`,
      file,
      `${video.id}/scenes/0/thumbnail.jpg?${query}`,
      `${file}?exp=abc&sig=${sig}`,
      `${file}?exp=${params.get('exp')}&sig=${sig}&sig=${sig}`,
    ];
    for (const c of cases) {
      const res = await fetchAsset(output(c));
      expect(res.status, c).toBe(403);
      expect(await res.json()).toHaveProperty('detail');
    }
  });

  it('refuse another team: its paths do not open this team files', async () => {
    // A path signed for team A's key but claiming another team does not verify.
    const forged = signAssetPath(server.ctx, `output/${other.id}/thumbnail.jpg`, teamId)!;
    expect((await fetchAsset(output(forged))).status).toBe(403);
    // The other team's own answer opens its file, not ours.
    const theirs = (await server.call('GET', `/api/videos/${other.id}`, { token: otherToken }))
      .body;
    expect((await fetchAsset(output(theirs.video_thumbnail_path))).status).toBe(200);
    const swapped = theirs.video_thumbnail_path.replace(other.id, video.id);
    expect((await fetchAsset(output(swapped))).status).toBe(403);
  });

  it('expire: an old link answers 403 once its time has passed', async () => {
    const p = detail.video_thumbnail_path;
    const exp = Number(new URL(`http://x/${p}`).searchParams.get('exp'));
    const realNow = server.ctx.now;
    try {
      server.ctx.now = () => exp * 1000 - 1000;
      expect((await fetchAsset(output(p))).status).toBe(200);
      server.ctx.now = () => exp * 1000;
      const res = await fetchAsset(output(p));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toBe('Link expired');
      // A fresh answer after that moment carries a new, working path.
      const fresh = signAssetPath(server.ctx, video.keys.thumbnail, teamId)!;
      expect(fresh).not.toBe(p);
      expect((await fetchAsset(output(fresh))).status).toBe(200);
    } finally {
      server.ctx.now = realNow;
    }
  });

  it('sandbox files a browser would run as a page (SVG people images)', async () => {
    const key = `input/${video.id}/people/0.svg`;
    await server.ctx.storage.put(
      key,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    const res = await fetchAsset(input(signAssetPath(server.ctx, key, teamId)!));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    const jpeg = await fetchAsset(output(detail.video_thumbnail_path));
    expect(jpeg.headers.get('content-security-policy')).toBeNull();
  });

  it('answer 404 once the video is deleted', async () => {
    const doomed = await seedCompletedVideo(server.ctx, { teamId, index: false });
    const p = signAssetPath(server.ctx, doomed.keys.thumbnail, teamId)!;
    expect((await fetchAsset(output(p))).status).toBe(200);
    expect((await server.call('DELETE', `/api/videos/${doomed.id}`, { token })).status).toBe(200);
    expect((await fetchAsset(output(p))).status).toBe(404);
  });
});

describe('range requests', () => {
  const clip = () => output(detail.output_data.scenes[0]!.video_path);

  it('answer 206 with the asked bytes', async () => {
    const res = await fetchAsset(clip(), { headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${media.mp4.length}`);
    expect(res.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await res.arrayBuffer()).equals(media.mp4.subarray(100, 200))).toBe(true);
  });

  it('serve open-ended and suffix ranges', async () => {
    const size = media.mp4.length;
    const open = await fetchAsset(clip(), { headers: { range: `bytes=${size - 10}-` } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(media.mp4.subarray(size - 10))).toBe(true);
    const suffix = await fetchAsset(clip(), { headers: { range: 'bytes=-5' } });
    expect(suffix.headers.get('content-range')).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(media.mp4.subarray(size - 5))).toBe(true);
    const past = await fetchAsset(clip(), { headers: { range: `bytes=0-${size * 2}` } });
    expect(past.status).toBe(206);
    expect(Number(past.headers.get('content-length'))).toBe(size);
  });

  it('answer 416 for ranges that cannot be served', async () => {
    const size = media.mp4.length;
    for (const range of [`bytes=${size}-`, 'bytes=50-10', 'bytes=-0', 'bytes=abc', 'bytes=-']) {
      const res = await fetchAsset(clip(), { headers: { range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
    }
  });

  it('answer HEAD with the length and no body', async () => {
    const res = await fetchAsset(clip(), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(media.mp4.length);
  });
});

describe('path traversal', () => {
  it('never serves a file outside the video folders', async () => {
    const [, query] = detail.video_thumbnail_path.split('?') as [string, string];
    const attempts = [
      `/assets/data/output/../../secrets.json?${query}`,
      `/assets/data/output/${video.id}/../../secrets.json?${query}`,
      `/assets/data/output/%2e%2e/%2e%2e/secrets.json?${query}`,
      `/assets/data/output/${video.id}/%2e%2e%2f%2e%2e%2fsecrets.json?${query}`,
      `/assets/data/output/${video.id}%2f..%2f..%2fsecrets.json?${query}`,
      `/assets/data/output/${video.id}/..%5c..%5csecrets.json?${query}`,
      `/assets/data/output/${video.id}//thumbnail.jpg?${query}`,
      `/assets/data/files/${video.id}/thumbnail.jpg?${query}`,
      `/assets/data/output/${video.id}/thumbnail.jpg%00.png?${query}`,
      `/assets/data/output/?${query}`,
      `/assets/data/output/secrets.json`,
    ];
    for (const p of attempts) {
      const res = await rawGet(p);
      expect([403, 404], p).toContain(res.status);
      expect(res.body).not.toContain('assetKey');
    }
  });
});
