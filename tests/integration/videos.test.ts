// The video list, detail, delete and retry over real HTTP, with seeded videos of two teams.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token: string;
let otherToken: string;
let teamId: string;
let otherTeamId: string;

const PASSWORD = 'secret123';
const MINUTE = 60_000;

beforeAll(async () => {
  server = await startTestServer();
  const userId = await server.createUser({ email: 'a@example.com', password: PASSWORD, team: 'A' });
  const otherId = await server.createUser({
    email: 'b@example.com',
    password: PASSWORD,
    team: 'B',
  });
  teamId = await teamOf(server.ctx, userId);
  otherTeamId = await teamOf(server.ctx, otherId);
  token = await server.login('a@example.com', PASSWORD);
  otherToken = await server.login('b@example.com', PASSWORD);
});

afterAll(async () => {
  await server?.close();
});

const get = (p: string, t = token) => server.call('GET', p, { token: t });

describe('GET /api/videos', () => {
  const base = Date.UTC(2024, 0, 1);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const seed = async (
      name: string,
      status: 'completed' | 'failed' | 'in_progress' | 'uploading',
      minutes: number,
      tags: string[] = [],
    ) => {
      const v = await seedCompletedVideo(server.ctx, {
        teamId,
        title: name,
        filename: `${name}.mp4`,
        status,
        tags,
        createdAt: new Date(base + minutes * MINUTE),
        index: false,
      });
      ids[name] = v.id;
    };
    await seed('old-done', 'completed', 1, ['Cat', 'beach']);
    await seed('failed', 'failed', 2);
    await seed('new-done', 'completed', 5, ['dog']);
    await seed('running', 'in_progress', 3);
    await seed('uploading', 'uploading', 4);
    await seed('mid-done', 'completed', 4.5, ['New York', 'CAT']);
    await seedCompletedVideo(server.ctx, {
      teamId: otherTeamId,
      title: 'other team',
      tags: ['cat'],
      index: false,
    });
  });

  it('lists the team videos, unfinished work first, then newest first', async () => {
    const res = await get('/api/videos');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 6, pages: 1, page: 1, size: 50 });
    expect(res.body.items.map((v: { title: string }) => v.title)).toEqual([
      'uploading',
      'running',
      'failed',
      'new-done',
      'mid-done',
      'old-done',
    ]);
    const statuses = res.body.items.map((v: { status: string }) => v.status);
    expect(statuses.slice(0, 3)).toEqual(['uploading', 'in_progress', 'failed']);
  });

  it('answers every field of a video in snake_case', async () => {
    const res = await get('/api/videos?tags=dog');
    const [item] = res.body.items;
    expect(Object.keys(item).sort()).toEqual(
      [
        'id',
        'filename',
        'title',
        'summary',
        'tags',
        'status',
        'created_at',
        'video_date',
        'video_length',
        'video_thumbnail_path',
        'video_path',
        'trailer_path',
        'report_path',
        'is_trailer_creating',
        'is_report_creating',
        'failure_code',
        'file_size',
        'content_sha256',
        'duplicate_of',
      ].sort(),
    );
    expect(item).toMatchObject({
      id: ids['new-done'],
      filename: 'new-done.mp4',
      tags: [{ name: 'dog' }],
      status: 'completed',
      created_at: new Date(base + 5 * MINUTE).toISOString(),
      video_date: '2024-05-01T10:00:00.000',
      video_length: 2,
      trailer_path: null,
      report_path: null,
      is_trailer_creating: false,
      is_report_creating: false,
    });
    expect(item.video_thumbnail_path).toMatch(
      new RegExp(`^${ids['new-done']}/thumbnail\\.jpg\\?exp=\\d+&sig=[\\w-]+$`),
    );
    expect(item.video_path).toMatch(new RegExp(`^${ids['new-done']}/source\\.mp4\\?exp=`));
  });

  it('sorts by newest or oldest when asked', async () => {
    const newest = await get('/api/videos?sort=newest');
    expect(newest.body.items.map((v: { title: string }) => v.title)).toEqual([
      'new-done',
      'mid-done',
      'uploading',
      'running',
      'failed',
      'old-done',
    ]);
    const oldest = await get('/api/videos?sort=oldest');
    expect(oldest.body.items[0].title).toBe('old-done');
  });

  it('pages with size and page', async () => {
    const first = await get('/api/videos?size=4&page=1');
    expect(first.body).toMatchObject({ total: 6, pages: 2, page: 1, size: 4 });
    expect(first.body.items).toHaveLength(4);
    const second = await get('/api/videos?size=4&page=2');
    expect(second.body.items.map((v: { id: string }) => v.id)).toEqual([
      ids['mid-done'],
      ids['old-done'],
    ]);
    const beyond = await get('/api/videos?size=4&page=9');
    expect(beyond.body).toMatchObject({ items: [], total: 6, pages: 2, page: 9 });
    const capped = await get('/api/videos?size=5000');
    expect(capped.body.size).toBe(100);
  });

  it('filters by any of the given tags, case-insensitively, in every accepted spelling', async () => {
    const titles = async (q: string) =>
      (await get(`/api/videos?${q}`)).body.items.map((v: { title: string }) => v.title).sort();
    expect(await titles('tags=cat')).toEqual(['mid-done', 'old-done']);
    expect(await titles('tags=DOG,beach')).toEqual(['new-done', 'old-done']);
    expect(await titles('tags=dog%20beach')).toEqual(['new-done', 'old-done']);
    expect(await titles('tags[]=dog&tags[]=Cat')).toEqual(['mid-done', 'new-done', 'old-done']);
    expect(await titles('tags[0]=beach')).toEqual(['old-done']);
    expect(await titles('tags=new%20york')).toEqual(['mid-done']);
    expect(await titles('tags=nothing')).toEqual([]);
    const none = await get('/api/videos?tags=nothing');
    expect(none.body).toMatchObject({ total: 0, pages: 0, items: [] });
  });

  it('refuses garbage query parameters with 422, never 500', async () => {
    for (const q of [
      'page=0',
      'page=abc',
      'size=0',
      'size=-1',
      'sort=sideways',
      'page=1&page=2',
      'page=1e99',
    ]) {
      const res = await get(`/api/videos?${q}`);
      expect(res.status, q).toBe(422);
      expect(Array.isArray(res.body.detail), q).toBe(true);
    }
    const longTag = await get(`/api/videos?tags=${'x'.repeat(300)}`);
    expect(longTag.status).toBe(422);
  });

  it('needs a session', async () => {
    expect((await server.call('GET', '/api/videos')).status).toBe(401);
  });

  it('shows the other team only its own videos', async () => {
    const res = await get('/api/videos', otherToken);
    expect(res.body.total).toBe(1);
    expect(res.body.items[0].title).toBe('other team');
  });
});

describe('GET /api/videos/{id}', () => {
  it('answers the video with its scenes, frames and captions', async () => {
    const v = await seedCompletedVideo(server.ctx, {
      teamId,
      title: 'Detail',
      scenes: [
        { description: 'Opening shot', startMs: 0, endMs: 1500, frames: 2 },
        { description: 'A long second scene', startMs: 1500, endMs: 3_725_042, frames: 8 },
      ],
      captions: [{ start_time: '00:00:00.000', end_time: '00:00:01.000', text: 'Hello' }],
      index: false,
    });
    const res = await get(`/api/videos/${v.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: v.id, title: 'Detail', status: 'completed' });
    const { scenes, captions } = res.body.output_data;
    expect(captions).toEqual([
      { start_time: '00:00:00.000', end_time: '00:00:01.000', text: 'Hello' },
    ]);
    expect(scenes).toHaveLength(2);
    expect(scenes[0]).toMatchObject({
      index: 0,
      start_time: '00:00:00.000',
      end_time: '00:00:01.500',
      description: 'Opening shot',
    });
    expect(scenes[1]).toMatchObject({
      index: 1,
      start_time: '00:00:01.500',
      end_time: '01:02:05.042',
    });
    expect(scenes[0].thumbnail).toMatch(new RegExp(`^${v.id}/scenes/0/thumbnail\\.jpg\\?exp=`));
    expect(scenes[0].video_path).toMatch(new RegExp(`^${v.id}/scenes/0/clip\\.mp4\\?exp=`));
    expect(scenes[1].frames).toHaveLength(8);
    expect(scenes[1].frames[7].path).toMatch(new RegExp(`^${v.id}/scenes/1/frames/7\\.jpg\\?exp=`));
  });

  it('answers 404 for another team, unknown ids and ids that are not uuids', async () => {
    const v = await seedCompletedVideo(server.ctx, { teamId, index: false });
    expect((await get(`/api/videos/${v.id}`, otherToken)).status).toBe(404);
    expect((await get(`/api/videos/${crypto.randomUUID()}`)).status).toBe(404);
    for (const bad of ['123', 'not-a-uuid', '%27%20OR%201%3D1', 'x'.repeat(90)]) {
      const res = await get(`/api/videos/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(typeof res.body.detail).toBe('string');
    }
    // Fastify refuses overlong path parameters itself: still a client error.
    expect((await get(`/api/videos/${'x'.repeat(300)}`)).status).toBe(414);
  });
});

describe('DELETE /api/videos/{id}', () => {
  const filesDir = () => path.join(server.dataDir, 'files');

  it('removes the record, its scenes, its index rows and its files', async () => {
    const v = await seedCompletedVideo(server.ctx, {
      teamId,
      title: 'Doomed',
      summary: 'pelican harbour',
      scenes: [{ description: 'a pelican' }, { description: 'a harbour' }],
    });
    const count = async (sql: string) =>
      (await server.ctx.db.query<{ n: number }>(sql, [v.id]))[0]!.n;
    expect(
      await count('SELECT count(*)::int AS n FROM search_postings WHERE video_id = $1'),
    ).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(filesDir(), 'output', v.id))).toBe(true);

    expect((await server.call('DELETE', `/api/videos/${v.id}`, { token: otherToken })).status).toBe(
      404,
    );
    expect(fs.existsSync(path.join(filesDir(), 'output', v.id))).toBe(true);

    const res = await server.call('DELETE', `/api/videos/${v.id}`, { token });
    expect(res.status).toBe(200);
    expect(await count('SELECT count(*)::int AS n FROM videos WHERE id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM scenes WHERE video_id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM search_postings WHERE video_id = $1')).toBe(
      0,
    );
    expect(await count('SELECT count(*)::int AS n FROM search_documents WHERE video_id = $1')).toBe(
      0,
    );
    expect(fs.existsSync(path.join(filesDir(), 'output', v.id))).toBe(false);
    expect(fs.existsSync(path.join(filesDir(), 'input', v.id))).toBe(false);
    expect((await get(`/api/videos/${v.id}`)).status).toBe(404);
    expect((await server.call('DELETE', `/api/videos/${v.id}`, { token })).status).toBe(404);
  });

  it('cancels the queued or running analysis of the video it deletes', async () => {
    const v = await seedCompletedVideo(server.ctx, { teamId, status: 'failed', index: false });
    expect((await server.call('POST', `/api/videos/${v.id}/retry-process`, { token })).status).toBe(
      200,
    );
    const live = async () =>
      (
        await server.ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE video_id = $1 AND state IN ('queued', 'running')`,
          [v.id],
        )
      )[0]!.n;
    expect(await live()).toBe(1);
    expect((await server.call('DELETE', `/api/videos/${v.id}`, { token })).status).toBe(200);
    expect(await live()).toBe(0);
    // A handler that was running must not bring files back after the delete.
    await new Promise((r) => setTimeout(r, 500));
    expect(fs.existsSync(path.join(filesDir(), 'output', v.id))).toBe(false);
    expect(fs.existsSync(path.join(filesDir(), 'input', v.id))).toBe(false);
  });

  it('answers 404 for ids that are not uuids', async () => {
    expect((await server.call('DELETE', '/api/videos/nope', { token })).status).toBe(404);
  });
});

describe('POST /api/videos/{id}/retry-process', () => {
  it('retries only failed videos of the team', async () => {
    const done = await seedCompletedVideo(server.ctx, { teamId, index: false });
    const running = await seedCompletedVideo(server.ctx, {
      teamId,
      status: 'in_progress',
      index: false,
    });
    const failed = await seedCompletedVideo(server.ctx, { teamId, status: 'failed', index: false });
    const retry = (id: string, t = token) =>
      server.call('POST', `/api/videos/${id}/retry-process`, { token: t });

    expect((await retry(done.id)).status).toBe(409);
    expect((await retry(running.id)).status).toBe(409);
    expect((await retry(failed.id, otherToken)).status).toBe(404);
    expect((await retry('bad-id')).status).toBe(404);

    const res = await retry(failed.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: failed.id, status: 'in_progress' });
    expect((await get(`/api/videos/${failed.id}`)).body.status).toBe('in_progress');
    // A second retry while the first runs is a conflict, not a second job.
    expect((await retry(failed.id)).status).toBe(409);
  });
});
