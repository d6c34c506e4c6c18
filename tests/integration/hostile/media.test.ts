// Hostile video uploads through the real API, the real inline worker and real ffmpeg: files named
// .mp4 that are really an HLS playlist or a concat script naming another team's upload by its
// absolute path, images, text, a truncated MP4 and an MP4 whose headers claim 100 hours. Each
// video fails with a plain reason, nothing of the named file is read, and the server stays up.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../../server/src/media/run.ts';
import { resolveMediaTools } from '../../../server/src/media/tools.ts';
import { NOT_A_VIDEO } from '../../../server/src/pipeline/media-steps.ts';
import { CAPTION_CUE_MAX_CHARS } from '../../../server/src/limits.ts';
import { forgeDuration, makeClip } from '../../support/container-clips.ts';
import { angleFloodVideo, oversizeVideo } from '../../support/hostile-files.ts';
import { makeVideo } from '../../support/media.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { uploadVideo } from '../../support/videos.ts';

let server: TestServer;
let attacker: string;
let victim: string;
/** The absolute path of the other team's original file on the server. */
let victimFile: string;

beforeAll(async () => {
  server = await startTestServer(); // inline worker: uploads are analysed as in production
  await server.createUser({ email: 'eve@example.com', password: 'password1', team: 'Eve' });
  await server.createUser({ email: 'vic@example.com', password: 'password1', team: 'Vic' });
  attacker = await server.login('eve@example.com', 'password1');
  victim = await server.login('vic@example.com', 'password1');
  const secret = await makeVideo({ segments: [{ source: 'smptebars', seconds: 3 }] });
  // Its analysis may still run: the attack needs only the file on disk.
  const id = await upload(victim, fs.readFileSync(secret.file));
  victimFile = path.join(server.dataDir, 'files', 'input', id, 'source.mp4');
  expect(fs.existsSync(victimFile)).toBe(true);
});
afterAll(() => server?.close());

/** Create, send through the signed form, and tell the server the file is up (as the client does). */
async function upload(token: string, bytes: Buffer, filename = 'holiday.mp4'): Promise<string> {
  return uploadVideo(server, token, bytes, { filename, video_length: 3, about_this_video: '' });
}

async function waitForStatus(id: string, wanted: string, timeoutMs = 150_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await server.ctx.db.query<{ status: string; failure_reason: string | null }>(
      'SELECT status, failure_reason FROM videos WHERE id = $1',
      [id],
    );
    if (row?.status === wanted) return row.failure_reason ?? '';
    if (!['in_progress', 'uploading'].includes(row?.status ?? '') || Date.now() > until) {
      throw new Error(`video is ${row?.status} (${row?.failure_reason}), expected ${wanted}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A hostile upload: failed with the reason, no scene, no frame, no output file at all. */
async function expectRefused(bytes: Buffer, reason: string | RegExp): Promise<void> {
  const id = await upload(attacker, bytes);
  const failure = await waitForStatus(id, 'failed');
  if (typeof reason === 'string') expect(failure).toBe(reason);
  else expect(failure).toMatch(reason);
  const detail = await server.call('GET', `/api/videos/${id}`, { token: attacker });
  expect(detail.status).toBe(200);
  expect(detail.body.status).toBe('failed');
  expect(detail.body.video_thumbnail_path ?? null).toBeNull();
  const scenes = await server.ctx.db.query('SELECT 1 FROM scenes WHERE video_id = $1', [id]);
  expect(scenes).toEqual([]);
  expect(fs.existsSync(path.join(server.dataDir, 'files', 'output', id))).toBe(false);
  expect((await server.call('GET', '/api/health')).status).toBe(200);
}

// Each case waits for the worker, which runs one analysis at a time on a busy machine.
describe('hostile video files', { timeout: 180_000 }, () => {
  it('refuses an HLS playlist named .mp4 that names another upload by its path', async () => {
    const playlist =
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n' +
      `#EXTINF:3.0,\n${victimFile}\n#EXT-X-ENDLIST\n`;
    await expectRefused(Buffer.from(playlist), NOT_A_VIDEO);
  });

  it('refuses a concat script named .mp4', async () => {
    const script = `ffconcat version 1.0\nfile '${victimFile}'\nfile '${victimFile}'\n`;
    await expectRefused(Buffer.from(script), NOT_A_VIDEO);
  });

  it('refuses text, a still image and an image sequence named .mp4', async () => {
    await expectRefused(Buffer.from('this is not a video at all\n'.repeat(50)), NOT_A_VIDEO);
    const frames = await jpegFrames(3);
    await expectRefused(frames[0]!, NOT_A_VIDEO);
    await expectRefused(Buffer.concat(frames), NOT_A_VIDEO);
  });

  it('refuses a truncated MP4, with or without its index', async () => {
    const indexLast = fs.readFileSync(await makeClip({ seconds: 10, format: 'mp4' }));
    await expectRefused(indexLast.subarray(0, Math.floor(indexLast.length * 0.6)), NOT_A_VIDEO);
    const indexFirst = fs.readFileSync(
      await makeClip({ seconds: 10, format: 'mp4', faststart: true }),
    );
    await expectRefused(
      indexFirst.subarray(0, Math.floor(indexFirst.length * 0.4)),
      /^the video file is incomplete or damaged/,
    );
  });

  it('refuses an MP4 whose headers claim 100 hours, and one claiming 20 hours of 3 s', async () => {
    const clip = fs.readFileSync(await makeClip({ seconds: 3, format: 'mp4', faststart: true }));
    await expectRefused(forgeDuration(clip, 100 * 3600), /^the video is longer than 48 hours$/);
    await expectRefused(forgeDuration(clip, 20 * 3600), /^the video file is incomplete or damaged/);
  });

  it('refuses a video over the size limit at the probe, saying why', async () => {
    const wide = fs.readFileSync(await oversizeVideo(9000, 64));
    await expectRefused(
      wide,
      /^not a video file: its picture is 9000 x 64 pixels; at most 8192 pixels a side/,
    );
  });

  it('analyses a Matroska .mov whose subtitle lines are 150,000 "<": cues cut, health answers', async () => {
    const id = await upload(attacker, fs.readFileSync(await angleFloodVideo()), 'flood.mov');
    let slowestMs = 0;
    for (;;) {
      const started = performance.now();
      expect((await server.call('GET', '/api/health')).status).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      const [row] = await server.ctx.db.query<{ status: string }>(
        'SELECT status FROM videos WHERE id = $1',
        [id],
      );
      if (row?.status !== 'in_progress' && row?.status !== 'uploading') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await waitForStatus(id, 'completed');
    console.log(`slowest /api/health during the '<' flood: ${slowestMs.toFixed(0)} ms`);
    const detail = await server.call('GET', `/api/videos/${id}`, { token: attacker });
    const captions = (detail.body.output_data as { captions: { text: string }[] }).captions;
    expect(captions.map((c) => c.text)).toEqual(
      Array.from({ length: 3 }, () => '<'.repeat(CAPTION_CUE_MAX_CHARS)),
    );
  });

  it('still analyses MP4 and Matroska uploads', async () => {
    for (const format of ['mp4', 'matroska'] as const) {
      const id = await upload(attacker, fs.readFileSync(await makeClip({ seconds: 3, format })));
      await waitForStatus(id, 'completed');
    }
  });
});

/** n different small JPEG pictures made by ffmpeg. */
async function jpegFrames(n: number): Promise<Buffer[]> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const frames: Buffer[] = [];
  for (const colour of ['red', 'green', 'blue', 'white'].slice(0, n)) {
    const { stdout } = await runProcess(ffmpeg, [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi'],
      ...['-i', `color=c=${colour}:size=160x120`, '-frames:v', '1'],
      ...['-c:v', 'mjpeg', '-f', 'image2pipe', 'pipe:1'],
    ]);
    frames.push(stdout);
  }
  return frames;
}
