// The analysis pipeline end to end with the local provider and real ffmpeg: a generated video with
// known cuts, a fade, a mov_text subtitle track and a silent audio track becomes scenes, frames,
// thumbnails, clips, captions, words and index rows; a file that is not a video fails with a plain
// reason and a retry succeeds once the file is replaced.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/src/context.ts';
import { jobsOfVideo } from '../../server/src/jobs/job-store.ts';
import { probeFile } from '../../server/src/media/operations.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { enqueueAnalysis, retryAnalysis } from '../../server/src/pipeline/enqueue.ts';
import { clipsPerRun } from '../../server/src/pipeline/media-steps.ts';
import { makeVideo, type MadeVideo } from '../support/media.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let ctx: AppContext;
let token: string;
let teamId: string;
let ownerId: string;
let video: MadeVideo;

const SUBTITLES = [
  { startMs: 500, endMs: 1500, text: 'Hello from the harbour' },
  { startMs: 4500, endMs: 5500, text: 'The second caption' },
];

beforeAll(async () => {
  server = await startTestServer(); // WORKER defaults to inline: the server runs the jobs.
  ctx = server.ctx;
  ownerId = await server.createUser({ email: 'pipe@example.com', password: 'password1' });
  teamId = (
    await ctx.db.query<{ team_id: string }>('SELECT team_id FROM users WHERE id = $1', [ownerId])
  )[0]!.team_id;
  token = await server.login('pipe@example.com', 'password1');
  video = await makeVideo({
    segments: [
      { source: 'testsrc', seconds: 2 },
      { source: 'smptebars', seconds: 2, transition: { kind: 'cut' } },
      { source: 'rgbtestsrc', seconds: 2.5, transition: { kind: 'fade', seconds: 1 } },
      { source: 'testsrc2', seconds: 2, transition: { kind: 'cut' } },
    ],
    subtitles: SUBTITLES,
    silentAudio: true,
  });
});

afterAll(async () => {
  await server?.close();
});

async function newVideo(file: string | Buffer, filename = 'harbour.mp4'): Promise<string> {
  const [row] = await ctx.db.query<{ id: string }>(
    `INSERT INTO videos (team_id, owner_id, filename, status, output_language, about_this_video)
     VALUES ($1, $2, $3, 'uploading', 'en', 'A walk along the harbour') RETURNING id`,
    [teamId, ownerId, filename],
  );
  const key = `input/${row!.id}/source.mp4`;
  await ctx.storage.put(key, typeof file === 'string' ? fs.readFileSync(file) : file);
  await ctx.db.query('UPDATE videos SET source_key = $2 WHERE id = $1', [row!.id, key]);
  return row!.id;
}

// Generous: the analysis now also runs the face and object models, and the machine is shared.
async function waitForStatus(id: string, wanted: string, timeoutMs = 150_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await ctx.db.query<{ status: string; failure_reason: string | null }>(
      'SELECT status, failure_reason FROM videos WHERE id = $1',
      [id],
    );
    if (row?.status === wanted) return;
    if (row?.status !== 'in_progress' || Date.now() > until) {
      throw new Error(`video is ${row?.status} (${row?.failure_reason}), expected ${wanted}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('analysis pipeline', { timeout: 300_000 }, () => {
  it('turns a video into scenes, frames, thumbnails, clips, captions, words and index rows', async () => {
    const id = await newVideo(video.file);
    expect(await enqueueAnalysis(ctx, id)).toBe(true);
    // A second status call while the job is queued adds nothing.
    expect(await enqueueAnalysis(ctx, id)).toBe(false);
    await waitForStatus(id, 'completed');

    const scenes = await ctx.db.query<{
      idx: number;
      start_ms: number;
      end_ms: number;
      frames: string[];
      thumbnail_key: string;
      clip_key: string;
      captions: string;
      description: string;
    }>('SELECT * FROM scenes WHERE video_id = $1 ORDER BY idx', [id]);
    expect(video.boundariesMs).toEqual([2000, 4000, 6500]);
    expect(scenes.map((s) => s.start_ms).slice(1)).toHaveLength(video.boundariesMs.length);
    scenes.slice(1).forEach((s, i) => {
      expect(Math.abs(s.start_ms - video.boundariesMs[i]!)).toBeLessThanOrEqual(500);
    });
    expect(scenes[0]!.start_ms).toBe(0);
    expect(Math.abs(scenes.at(-1)!.end_ms - video.durationMs)).toBeLessThanOrEqual(100);
    for (const s of scenes) {
      expect(s.frames.length).toBeGreaterThanOrEqual(1);
      expect(s.frames.length).toBeLessThanOrEqual(12);
      for (const key of [...s.frames, s.thumbnail_key, s.clip_key]) {
        expect(key.startsWith(`output/${id}/`)).toBe(true);
        expect((await ctx.storage.stat(key))?.size).toBeGreaterThan(0);
      }
      expect(s.description.length).toBeGreaterThan(0);
    }
    // A frame is a real JPEG.
    const frame = await ctx.storage.localPath(scenes[0]!.frames[0]!);
    expect(fs.readFileSync(frame.path).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Captions from the mov_text track, per scene too.
    expect(scenes[0]!.captions).toContain('Hello from the harbour');
    expect(scenes[2]!.captions).toContain('The second caption');

    const [row] = await ctx.db.query<{
      title: string;
      summary: string;
      tags: { name: string }[];
      video_length: number;
      thumbnail_key: string;
      playable_key: string;
      output_data: { captions: { start_time: string; text: string }[]; captions_key: string };
      embedding: string | null;
    }>('SELECT * FROM videos WHERE id = $1', [id]);
    expect(row!.title.length).toBeGreaterThan(0);
    expect(row!.summary.length).toBeGreaterThan(0);
    expect(Array.isArray(row!.tags)).toBe(true);
    expect(row!.video_length).toBeCloseTo(video.durationMs / 1000, 1);
    expect((await ctx.storage.stat(row!.thumbnail_key))?.size).toBeGreaterThan(0);
    // The generated H.264/AAC MP4 plays as it is: no rendition.
    expect(row!.playable_key).toBe(`input/${id}/source.mp4`);
    expect(row!.output_data.captions).toEqual([
      { start_time: '00:00:00.500', end_time: '00:00:01.500', text: 'Hello from the harbour' },
      { start_time: '00:00:04.500', end_time: '00:00:05.500', text: 'The second caption' },
    ]);
    const vtt = await ctx.storage.localPath(row!.output_data.captions_key);
    expect(fs.readFileSync(vtt.path, 'utf8')).toMatch(/^WEBVTT/);

    // Every step recorded; the job done.
    const steps = await ctx.db.query<{ step: string }>(
      'SELECT step FROM pipeline_steps WHERE video_id = $1',
      [id],
    );
    expect(steps.map((s) => s.step).sort()).toEqual(
      [
        'captions',
        'clips',
        'content-hash',
        'index',
        'perceive',
        'probe',
        'rendition',
        'scenes',
        'understand',
      ].sort(),
    );
    expect((await jobsOfVideo(ctx.db, id)).map((j) => j.state)).toEqual(['done']);

    // The API shows it: scene times as HH:mm:ss.SSS, signed paths.
    const res = await server.call('GET', `/api/videos/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.output_data.scenes[1].start_time).toMatch(/^00:00:0[12]\.\d{3}$/);
    expect(res.body.output_data.scenes[0].frames.length).toBeGreaterThan(0);
  });

  it('cuts every scene its own clip when the clips take several ffmpeg runs at once', async () => {
    // 18 scenes: more than one run cuts (clipsPerRun: 16 for a short video), and the runs go on
    // together. The scenes' lengths differ, so a clip stored under another scene shows.
    const sources = ['testsrc', 'smptebars', 'rgbtestsrc', 'testsrc2'];
    const lengths = [1.5, 2, 2.5];
    const many = await makeVideo({
      segments: Array.from({ length: 18 }, (_, i) => ({
        source: sources[i % sources.length]!,
        seconds: lengths[i % lengths.length]!,
        transition: { kind: 'cut' as const },
      })),
      silentAudio: true,
    });
    expect(18).toBeGreaterThan(clipsPerRun(many.durationMs));
    const id = await newVideo(many.file);
    await enqueueAnalysis(ctx, id);
    await waitForStatus(id, 'completed');
    const scenes = await ctx.db.query<{ start_ms: number; end_ms: number; clip_key: string }>(
      'SELECT start_ms, end_ms, clip_key FROM scenes WHERE video_id = $1 ORDER BY idx',
      [id],
    );
    expect(scenes).toHaveLength(18);
    const tools = resolveMediaTools(ctx.config);
    for (const scene of scenes) {
      const clip = await ctx.storage.localPath(scene.clip_key);
      const probed = await probeFile(tools, clip.path);
      expect(Math.abs(probed.durationMs - (scene.end_ms - scene.start_ms))).toBeLessThan(150);
    }
  });

  it('fails a file that is not a video with a plain reason, and a retry works once it is replaced', async () => {
    const id = await newVideo(
      Buffer.from('this is a text file, not a video\n'.repeat(50)),
      'notes.mp4',
    );
    await enqueueAnalysis(ctx, id);
    await waitForStatus(id, 'failed');
    const [row] = await ctx.db.query<{ failure_reason: string }>(
      'SELECT failure_reason FROM videos WHERE id = $1',
      [id],
    );
    expect(row!.failure_reason).toBe('not a video file');
    // The app is told why as a code it words in the user's language (issue 43).
    const failed = await server.call('GET', `/api/videos/${id}`, { token });
    expect(failed.body).toMatchObject({ status: 'failed', failure_code: 'not-a-video' });
    // Permanent: one attempt, no retries.
    expect((await jobsOfVideo(ctx.db, id)).map((j) => [j.state, j.attempts])).toEqual([
      ['failed', 1],
    ]);

    await ctx.storage.put(`input/${id}/source.mp4`, fs.readFileSync(video.file));
    expect(await retryAnalysis(ctx, id)).toBe(true);
    await waitForStatus(id, 'completed');
    const scenes = await ctx.db.query('SELECT idx FROM scenes WHERE video_id = $1', [id]);
    expect(scenes.length).toBe(4);
    const done = await server.call('GET', `/api/videos/${id}`, { token });
    expect(done.body).toMatchObject({ status: 'completed', failure_code: null });
  });
});
