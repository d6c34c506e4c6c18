// Trailers for real: a generated video with five known scenes (one of them plain red), scene
// descriptions seeded so an instruction matches two of them, the server's inline worker and the
// real ffmpeg. The result is probed and its pixels looked at.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/src/context.ts';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { ffmpegCaps } from '../../server/src/trailer/ffmpeg-caps.ts';
import { makeVideo, type MadeVideo } from '../support/media.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { uploadVideo } from '../support/videos.ts';

let server: TestServer;
let ctx: AppContext;
let token: string;
let otherToken: string;
let teamId: string;
let ownerId: string;
let source: MadeVideo;
const tools = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

const SCENES = [
  { description: 'A test pattern with a moving counter', captions: 'Counting down' },
  { description: 'A red sports car drives along the coast road', captions: 'Look at that car' },
  { description: 'Colour bars of a broadcast test signal', captions: '' },
  { description: 'Blue ocean waves under a clear sky', captions: 'The sea is calm' },
  { description: 'The red car parks in front of the harbour', captions: 'We have arrived' },
].map((s, i) => ({ ...s, startMs: i * 3000, endMs: (i + 1) * 3000 }));

beforeAll(async () => {
  server = await startTestServer();
  ctx = server.ctx;
  ownerId = await server.createUser({ email: 'trailer@example.com', password: 'password1' });
  await server.createUser({ email: 'other@example.com', password: 'password1', team: 'Other' });
  teamId = await teamOf(ctx, ownerId);
  token = await server.login('trailer@example.com', 'password1');
  otherToken = await server.login('other@example.com', 'password1');
  // No audio track: the trailer must get a silent one.
  source = await makeVideo({
    segments: [
      { source: 'testsrc', seconds: 3 },
      { source: 'color=c=red', seconds: 3 },
      { source: 'smptebars', seconds: 3 },
      { source: 'color=c=blue', seconds: 3 },
      { source: 'testsrc2', seconds: 3 },
    ],
  });
});

afterAll(async () => {
  // A file response can end on the server just after the client read all of it; a close in that
  // moment would wait for the keep-alive timeout. Nothing is in flight any more.
  server?.app.server.closeAllConnections();
  await server?.close();
});

/** A completed video whose file is the generated 15 s source. */
async function seedVideo(extra: { withTrailer?: boolean } = {}): Promise<string> {
  const { id, keys } = await seedCompletedVideo(ctx, {
    teamId,
    ownerId,
    scenes: SCENES,
    videoLength: 15,
    ...extra,
  });
  await ctx.storage.put(keys.source, fs.readFileSync(source.file), 'video/mp4');
  return id;
}

async function waitUntilMade(id: string, flag: 'is_trailer_creating' | 'is_report_creating') {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await server.call('GET', `/api/videos/${id}`, { token });
    expect(res.status).toBe(200);
    if (!res.body[flag]) return res.body;
    if (Date.now() > until) throw new Error(`${flag} still set`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

// Its own ffprobe call, not the server's probeArgs: the output is read without the code it tests.
async function probe(file: string) {
  const { stdout } = await runProcess(tools.ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  return JSON.parse(stdout.toString('utf8')) as {
    format: { duration: string };
    streams: { codec_type: string; codec_name: string }[];
  };
}

/** The average colour of the frame at `seconds`, as [r, g, b]. */
async function colourAt(file: string, seconds: number): Promise<number[]> {
  const { stdout } = await runProcess(tools.ffmpeg, [
    ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
    ...['-vf', 'scale=1:1:flags=area', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  return [...stdout.subarray(0, 3)];
}

async function sha256(key: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of await ctx.storage.read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function download(assetPath: string): Promise<string> {
  const res = await fetch(`${server.url}/assets/data/output/${assetPath}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  const file = `${server.dataDir}/trailer-${Date.now()}.mp4`;
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

describe('make-trailer', () => {
  it('cuts the scenes that match the instruction into an H.264/AAC mp4, in order', async () => {
    const id = await seedVideo();
    // Two requests at once: one starts the job, the other is told one is running.
    const [a, b] = await Promise.all([
      server.call('POST', `/api/videos/${id}/make-trailer`, {
        token,
        body: { trailer_instruction: 'the red car' },
      }),
      server.call('POST', `/api/videos/${id}/make-trailer`, {
        token,
        body: { trailer_instruction: 'the red car' },
      }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const started = a.status === 200 ? a.body : b.body;
    const refused = a.status === 200 ? b.body : a.body;
    expect(started.is_trailer_creating).toBe(true);
    expect(refused.detail).toMatch(/already being created/);

    const video = await waitUntilMade(id, 'is_trailer_creating');
    expect(video.trailer_path).toMatch(new RegExp(`^${id}/trailer-\\d+\\.mp4\\?exp=\\d+&sig=`));
    const [row] = await ctx.db.query<{ output_data: { trailer: Record<string, unknown> } }>(
      'SELECT output_data FROM videos WHERE id = $1',
      [id],
    );
    const record = row!.output_data.trailer;
    expect(record.basis).toBe('instruction');
    expect(record.scenes).toEqual([1, 4]);

    const file = await download(video.trailer_path);
    const info = await probe(file);
    expect(info.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual([
      'audio:aac',
      'video:h264',
    ]);
    const seconds = Number(info.format.duration);
    expect(seconds).toBeLessThanOrEqual(15);
    expect(seconds).toBeLessThanOrEqual(60);
    // Two 3 s scenes: with xfade they overlap by the 0.5 s cross-dissolve (5.5 s); without it
    // (the npm ffmpeg 4.1) each fades out and in and they are joined end to end (6 s).
    const { xfade } = await ffmpegCaps(tools.ffmpeg);
    expect(Math.abs(seconds - (xfade ? 5.5 : 6))).toBeLessThan(0.15);
    // It fades in from black: the first frame is dark, the red scene is red a moment later.
    expect(Math.max(...(await colourAt(file, 0)))).toBeLessThan(60);
    // It opens on the red scene (past the fade-in), and ends on the other match, not the bars.
    const [r, g, bl] = await colourAt(file, 1.2);
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(80);
    expect(bl).toBeLessThan(80);
  });

  it('makes the same trailer again for the same instruction and removes the old file', async () => {
    const id = await seedVideo();
    const body = { trailer_instruction: 'red car' };
    expect(
      (await server.call('POST', `/api/videos/${id}/make-trailer`, { token, body })).status,
    ).toBe(200);
    await waitUntilMade(id, 'is_trailer_creating');
    const first = await ctx.db.query<{
      trailer_key: string;
      output_data: { trailer: { scenes: number[]; segments: unknown[] } };
    }>('SELECT trailer_key, output_data FROM videos WHERE id = $1', [id]);
    const firstHash = await sha256(first[0]!.trailer_key);
    await new Promise((r) => setTimeout(r, 5)); // A later timestamp for the new name.
    expect(
      (await server.call('POST', `/api/videos/${id}/make-trailer`, { token, body })).status,
    ).toBe(200);
    await waitUntilMade(id, 'is_trailer_creating');
    const second = await ctx.db.query<{
      trailer_key: string;
      output_data: { trailer: { scenes: number[]; segments: unknown[] } };
    }>('SELECT trailer_key, output_data FROM videos WHERE id = $1', [id]);
    expect(second[0]!.output_data.trailer.scenes).toEqual(first[0]!.output_data.trailer.scenes);
    expect(second[0]!.trailer_key).not.toBe(first[0]!.trailer_key);
    // Deterministic with the local provider: the very same file, byte for byte.
    expect(second[0]!.output_data.trailer).toMatchObject({
      segments: first[0]!.output_data.trailer.segments,
    });
    expect(firstHash).toBe(await sha256(second[0]!.trailer_key));
    expect(await ctx.storage.stat(first[0]!.trailer_key)).toBeUndefined();
    expect((await ctx.storage.stat(second[0]!.trailer_key))?.size).toBeGreaterThan(0);
  });

  it('keeps the previous trailer and clears the flag when making one fails', async () => {
    const id = await seedVideo({ withTrailer: true });
    const [before] = await ctx.db.query<{ trailer_key: string; source_key: string }>(
      'SELECT trailer_key, source_key FROM videos WHERE id = $1',
      [id],
    );
    await ctx.storage.put(before!.source_key, Buffer.from('this is not a video'), 'video/mp4');
    const res = await server.call('POST', `/api/videos/${id}/make-trailer`, {
      token,
      body: { trailer_instruction: 'red car' },
    });
    expect(res.status).toBe(200);
    const video = await waitUntilMade(id, 'is_trailer_creating');
    expect(video.trailer_path).toMatch(new RegExp(`^${id}/trailer\\.mp4\\?`));
    const [after] = await ctx.db.query<{
      trailer_key: string;
      output_data: { trailer_failure?: { reason: string } };
    }>('SELECT trailer_key, output_data FROM videos WHERE id = $1', [id]);
    expect(after!.trailer_key).toBe(before!.trailer_key);
    expect(after!.output_data.trailer_failure?.reason).toMatch(/cannot be read/);
    expect((await ctx.storage.stat(before!.trailer_key))?.size).toBeGreaterThan(0);
    // The user can try again: the request is accepted (and fails again on this file).
    const again = await server.call('POST', `/api/videos/${id}/make-trailer`, {
      token,
      body: { trailer_instruction: 'red car' },
    });
    expect(again.status).toBe(200);
    await waitUntilMade(id, 'is_trailer_creating');
  });

  it('validates the instruction, the video state and the team', async () => {
    const id = await seedVideo();
    const post = (body: unknown, t = token, vid = id) =>
      server.call('POST', `/api/videos/${vid}/make-trailer`, { token: t, body });
    for (const body of [
      {},
      { trailer_instruction: '   ' },
      { trailer_instruction: 'x'.repeat(501) },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
    expect((await post({ trailer_instruction: 'red car' }, otherToken)).status).toBe(404);
    expect(
      (await post({ trailer_instruction: 'red car' }, token, crypto.randomUUID())).status,
    ).toBe(404);
    expect((await post({ trailer_instruction: 'red car' }, token, 'not-a-uuid')).status).toBe(404);
    const { id: running } = await seedCompletedVideo(ctx, { teamId, status: 'in_progress' });
    const res = await post({ trailer_instruction: 'red car' }, token, running);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/once the video has been analysed/);
    const [flags] = await ctx.db.query<{ is_trailer_creating: boolean }>(
      'SELECT is_trailer_creating FROM videos WHERE id = $1',
      [running],
    );
    expect(flags!.is_trailer_creating).toBe(false);
  });

  it('makes the trailer right after the analysis when the upload gave an instruction', async () => {
    const small = await makeVideo({
      segments: [
        { source: 'testsrc', seconds: 2 },
        { source: 'smptebars', seconds: 2 },
      ],
      silentAudio: true,
    });
    // The upload dialog's calls: create with the instruction, send the file, mark it uploaded.
    const id = await uploadVideo(server, token, fs.readFileSync(small.file), {
      filename: 'bars.mp4',
      video_length: 4,
      about_this_video: '',
      trailer_instruction: 'colour bars',
    });

    const until = Date.now() + 90_000;
    let video;
    do {
      await new Promise((r) => setTimeout(r, 200));
      video = (await server.call('GET', `/api/videos/${id}`, { token })).body;
      if (video.status === 'failed') throw new Error('analysis failed');
    } while ((!video.trailer_path || video.is_trailer_creating) && Date.now() < until);
    expect(video.status).toBe('completed');
    expect(video.trailer_path).toMatch(new RegExp(`^${id}/trailer-\\d+\\.mp4\\?`));
    const info = await probe(await download(video.trailer_path));
    expect(Number(info.format.duration)).toBeLessThanOrEqual(4);
    const [row] = await ctx.db.query<{ output_data: { trailer: { instruction: string } } }>(
      'SELECT output_data FROM videos WHERE id = $1',
      [id],
    );
    expect(row!.output_data.trailer.instruction).toBe('colour bars');
  });
});
