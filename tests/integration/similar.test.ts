// find-similar-videos and find-similar-scenes over real HTTP: parameter rules, each method and
// scope, paging within the top k, and only the caller's team's completed videos.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token: string;
let otherToken: string;
const ids: Record<string, string> = {};

const PASSWORD = 'secret123';
const METHODS = ['hybrid', 'dense', 'sparse'] as const;

interface Item {
  id: string;
  title: string;
  similarity_score: number;
  scene_index?: number;
  scene_description?: string;
  scene_thumbnail_path?: string | null;
}

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.createUser({ email: 'a@example.com', password: PASSWORD, team: 'A' });
  const b = await server.createUser({ email: 'b@example.com', password: PASSWORD, team: 'B' });
  const teamA = await teamOf(server.ctx, a);
  const teamB = await teamOf(server.ctx, b);
  token = await server.login('a@example.com', PASSWORD);
  otherToken = await server.login('b@example.com', PASSWORD);
  const seed = async (
    name: string,
    teamId: string,
    summary: string,
    scenes: string[],
    status: 'completed' | 'failed' = 'completed',
  ) => {
    const v = await seedCompletedVideo(server.ctx, {
      teamId,
      title: name,
      summary,
      status,
      scenes: scenes.map((description) => ({ description, frames: 1 })),
      index: true,
    });
    ids[name] = v.id;
  };
  await seed('Harbour', teamA, 'Pelicans diving in a fishing harbour at dawn', [
    'A pelican dives into the harbour water',
    'Fishing boats leave the harbour',
    'Gulls circle above the pier',
  ]);
  await seed('Mountain', teamA, 'Snowy mountain ridge hike with climbers and a pelican statue', [
    'Climbers rope up on the snowy ridge',
    'A pelican statue at the mountain hut',
  ]);
  await seed('Kitchen', teamA, 'Cooking pasta in a small kitchen', [
    'Boiling water for the pasta',
    'Grating cheese over the plate',
  ]);
  await seed(
    'Broken',
    teamA,
    'Pelicans harbour fishing pelican harbour',
    ['pelican harbour'],
    'failed',
  );
  await seed('Theirs', teamB, 'Pelicans diving in a fishing harbour at dawn', [
    'A pelican dives into the harbour water',
  ]);
});

afterAll(async () => {
  await server?.close();
});

function query(params: Record<string, string | number>): string {
  return new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
}
const videos = (params: Record<string, string | number>, t = token) =>
  server.call('GET', `/api/videos/find-similar-videos?${query(params)}`, { token: t });
const scenes = (params: Record<string, string | number>, t = token) =>
  server.call('GET', `/api/videos/find-similar-scenes?${query(params)}`, { token: t });

describe('parameters', () => {
  it('refuse bad combinations and values with 422', async () => {
    const bad: Record<string, string | number>[] = [
      {},
      { description: '   ' },
      { description: 'x', kValue: 0 },
      { description: 'x', kValue: 1000 },
      { description: 'x', kValue: 'ten' },
      { description: 'x'.repeat(1025) },
      { description: 'x', searchMethod: 'magic' },
      { description: 'x', searchScope: 'everywhere' },
      { description: 'x', searchScope: 'current' },
      { description: 'x', sceneIndex: 1 },
      { description: 'x', sceneIndex: -1, videoId: ids.Harbour! },
      { description: 'x', page: 0 },
      { description: 'x', size: 'big' },
    ];
    for (const params of bad) {
      for (const call of [videos, scenes]) {
        const res = await call(params);
        expect(res.status, JSON.stringify(params)).toBe(422);
        expect(Array.isArray(res.body.detail)).toBe(true);
      }
    }
  });

  it('accept the longest description and the extra flags the client sends', async () => {
    const res = await videos({ description: 'pelican '.repeat(128), video: 'true', kValue: 999 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, size: 50 });
  });

  it('answer 404 for a videoId of another team or not a uuid', async () => {
    expect((await videos({ videoId: ids.Theirs! })).status).toBe(404);
    expect((await scenes({ videoId: 'abc', searchScope: 'current' })).status).toBe(404);
    expect((await videos({ videoId: ids.Harbour! }, otherToken)).status).toBe(404);
  });

  it('need a session', async () => {
    const res = await server.call('GET', '/api/videos/find-similar-videos?description=x');
    expect(res.status).toBe(401);
  });
});

describe('video search', () => {
  it.each(METHODS)('%s finds the matching completed video of the team first', async (method) => {
    const res = await videos({ description: 'pelican harbour fishing', searchMethod: method });
    expect(res.status).toBe(200);
    const items: Item[] = res.body.items;
    expect(items[0]?.id).toBe(ids.Harbour);
    const found = items.map((i) => i.id);
    expect(found).not.toContain(ids.Broken);
    expect(found).not.toContain(ids.Theirs);
    for (const item of items) {
      expect(item.similarity_score).toBeGreaterThanOrEqual(0);
      expect(item.similarity_score).toBeLessThanOrEqual(1);
    }
    expect(items[0]).toMatchObject({ title: 'Harbour', status: 'completed' });
    expect(items[0]).toHaveProperty('summary');
    expect(items[0]).toHaveProperty('created_at');
    expect(items[0]).toHaveProperty('video_thumbnail_path');
  });

  it('pages within the top k', async () => {
    const all = await videos({
      description: 'pelican harbour snowy pasta',
      kValue: 3,
      searchMethod: 'sparse',
    });
    expect(all.body.total).toBe(3);
    const first = await videos({
      description: 'pelican harbour snowy pasta',
      kValue: 3,
      size: 2,
      searchMethod: 'sparse',
    });
    expect(first.body).toMatchObject({ total: 3, pages: 2, page: 1, size: 2 });
    const second = await videos({
      description: 'pelican harbour snowy pasta',
      kValue: 3,
      size: 2,
      page: 2,
      searchMethod: 'sparse',
    });
    expect(second.body.items).toHaveLength(1);
    const ids2 = [...first.body.items, ...second.body.items].map((i: Item) => i.id);
    expect(ids2).toEqual(all.body.items.map((i: Item) => i.id));
    const one = await videos({ description: 'pelican harbour snowy pasta', kValue: 1 });
    expect(one.body.total).toBe(1);
  });

  it('finds videos similar to a video, leaving the video itself out', async () => {
    const res = await videos({ videoId: ids.Harbour!, searchMethod: 'sparse' });
    expect(res.status).toBe(200);
    const found = res.body.items.map((i: Item) => i.id);
    expect(found).not.toContain(ids.Harbour);
    expect(found).not.toContain(ids.Theirs);
    expect(found[0]).toBe(ids.Mountain);
  });

  it('shows another team nothing of this team', async () => {
    const res = await videos({ description: 'pelican harbour fishing' }, otherToken);
    expect(res.body.items.map((i: Item) => i.id)).toEqual([ids.Theirs]);
  });
});

describe('scene search', () => {
  it.each(METHODS)('%s finds the matching scene with its fields', async (method) => {
    const res = await scenes({ description: 'pelican dives harbour water', searchMethod: method });
    expect(res.status).toBe(200);
    const [top] = res.body.items as Item[];
    expect(top).toMatchObject({
      id: ids.Harbour,
      title: 'Harbour',
      scene_index: 0,
      scene_description: 'A pelican dives into the harbour water',
    });
    expect(top!.scene_thumbnail_path).toMatch(
      new RegExp(`^${ids.Harbour}/scenes/0/thumbnail\\.jpg\\?exp=`),
    );
    const videoIds = (res.body.items as Item[]).map((i) => i.id);
    expect(videoIds).not.toContain(ids.Theirs);
    expect(videoIds).not.toContain(ids.Broken);
  });

  it('keeps to one video with scope current', async () => {
    const all = await scenes({ description: 'pelican', searchScope: 'all' });
    const allVideos = new Set((all.body.items as Item[]).map((i) => i.id));
    expect(allVideos.has(ids.Mountain!)).toBe(true);
    expect(allVideos.has(ids.Harbour!)).toBe(true);
    const current = await scenes({
      description: 'pelican',
      searchScope: 'current',
      videoId: ids.Mountain!,
    });
    expect(current.body.items.length).toBeGreaterThan(0);
    expect(new Set((current.body.items as Item[]).map((i) => i.id))).toEqual(
      new Set([ids.Mountain]),
    );
  });

  it('finds scenes similar to a scene, leaving the scene itself out', async () => {
    const res = await scenes({ videoId: ids.Harbour!, sceneIndex: 0, searchMethod: 'sparse' });
    expect(res.status).toBe(200);
    const pairs = (res.body.items as Item[]).map((i) => `${i.id}/${i.scene_index}`);
    expect(pairs).not.toContain(`${ids.Harbour}/0`);
    expect(pairs.length).toBeGreaterThan(0);
  });

  // The item's vector is read in the search's own statement: the item itself, another team's
  // identical scene and the failed video stay out, as with the keyword half.
  it.each(['dense', 'hybrid'])(
    'finds scenes and videos similar to an item by %s',
    async (method) => {
      const res = await scenes({ videoId: ids.Harbour!, sceneIndex: 0, searchMethod: method });
      const pairs = (res.body.items as Item[]).map((i) => `${i.id}/${i.scene_index}`);
      expect(pairs.length).toBeGreaterThan(0);
      expect(pairs).not.toContain(`${ids.Harbour}/0`);
      expect(pairs).toContain(`${ids.Harbour}/1`);
      const found = (await videos({ videoId: ids.Harbour!, searchMethod: method })).body.items.map(
        (i: Item) => i.id,
      );
      expect(found.length).toBeGreaterThan(0);
      expect(found).not.toContain(ids.Harbour);
      for (const other of [ids.Theirs, ids.Broken]) {
        expect(found).not.toContain(other);
        expect(pairs.some((p) => p.startsWith(`${other}/`))).toBe(false);
      }
    },
  );

  it('finds nothing by vector for an item whose vector is not there, and still by its words', async () => {
    await server.ctx.db.query(
      'UPDATE scenes SET embedding = NULL WHERE video_id = $1 AND idx = 0',
      [ids.Kitchen],
    );
    const item = { videoId: ids.Kitchen!, sceneIndex: 0 }; // 'Boiling water ...'
    expect((await scenes({ ...item, searchMethod: 'dense' })).body.items).toEqual([]);
    const words = await scenes({ ...item, searchMethod: 'hybrid' });
    expect(words.body.items.length).toBeGreaterThan(0);
  });
});
