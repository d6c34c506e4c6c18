// Search over a real PGlite: each method finds the right video and scene, in English and
// Japanese, within the team, among completed videos only, with paging and 0..1 scores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../server/src/analysis/create.ts';
import { toVectorLiteral } from '../../server/src/db/vector.ts';
import { indexVideo } from '../../server/src/search/index-video.ts';
import { searchScenes, searchVideos, type SearchParams } from '../../server/src/search/search.ts';
import {
  insertTeam,
  insertVideo,
  makeSearchCtx,
  type SearchTestCtx,
} from '../support/search-fixtures.ts';

const METHODS = ['hybrid', 'dense', 'sparse'] as const;

let ctx: SearchTestCtx;
let team: string;
let other: string;
const ids: Record<string, string> = {};

function params(p: Partial<SearchParams>): SearchParams {
  return { teamId: team, scope: 'all', method: 'hybrid', k: 10, page: 1, size: 50, ...p };
}

beforeAll(async () => {
  ctx = await makeSearchCtx();
  team = await insertTeam(ctx, 'Acme');
  other = await insertTeam(ctx, 'Other');
  const fixtures = {
    harbour: {
      teamId: team,
      title: 'Harbour fireworks festival',
      summary: 'Fireworks over the harbour at night with a crowd watching from the pier.',
      tags: ['fireworks', 'harbour', '#festival'],
      about: 'Annual summer festival filmed from the pier.',
      people: ['Maria Lopez'],
      scenes: [
        { description: 'Crowd gathers on the pier at dusk.', captions: 'the show starts soon' },
        { description: 'Red and gold fireworks burst above the water.', captions: 'wow look' },
      ],
    },
    cooking: {
      teamId: team,
      title: 'Cooking ramen at home',
      summary: 'A chef prepares ramen noodles with pork broth and soft boiled eggs.',
      tags: ['ramen', 'cooking', '#recipe'],
      about: 'Step by step noodle recipe.',
      scenes: [
        { description: 'Pork bones simmer in a large pot for the broth.' },
        { description: 'Noodles are boiled and served in the pork broth with eggs.' },
      ],
    },
    tokyo: {
      teamId: team,
      language: 'ja',
      title: '東京タワーの夜景',
      summary: '東京タワーがライトアップされた夜の街並みを撮影しました。',
      tags: ['東京', '夜景', '#東京タワー'],
      about: '展望台から見た東京の夜景です。',
      scenes: [
        { description: '展望台からの夜景。', captions: 'きれいな夜景ですね' },
        { description: '赤くライトアップされた東京タワー。' },
      ],
    },
    hidden: {
      teamId: team,
      status: 'in_progress',
      title: 'Fireworks rehearsal draft',
      summary: 'Fireworks fireworks fireworks harbour rehearsal.',
    },
    foreign: {
      teamId: other,
      title: 'Harbour fireworks of another team',
      summary: 'Fireworks over the harbour at night.',
    },
  };
  for (const [name, v] of Object.entries(fixtures)) {
    ids[name] = await insertVideo(ctx, v);
    await indexVideo(ctx, ids[name]!);
  }
});

afterAll(async () => {
  await ctx.db.close();
});

describe('searchVideos', () => {
  it.each(METHODS)('%s finds the English video by its words', async (method) => {
    const res = await searchVideos(
      ctx,
      params({ method, description: 'fireworks at the harbour' }),
    );
    expect(res.items[0]?.videoId).toBe(ids.harbour);
  });

  it.each(METHODS)('%s finds the Japanese video by its words', async (method) => {
    const res = await searchVideos(ctx, params({ method, description: '東京の夜景' }));
    expect(res.items[0]?.videoId).toBe(ids.tokyo);
  });

  it.each(METHODS)('%s keeps to completed videos of the team', async (method) => {
    const res = await searchVideos(
      ctx,
      params({ method, description: 'fireworks harbour', k: 50 }),
    );
    const found = res.items.map((i) => i.videoId);
    expect(found).not.toContain(ids.hidden);
    expect(found).not.toContain(ids.foreign);
    const theirs = await searchVideos(
      ctx,
      params({ teamId: other, method, description: 'fireworks' }),
    );
    expect(theirs.items.map((i) => i.videoId)).toEqual([ids.foreign]);
  });

  it.each(METHODS)('%s gives scores in 0..1, best first', async (method) => {
    const res = await searchVideos(ctx, params({ method, description: 'ramen noodles broth' }));
    expect(res.items[0]?.videoId).toBe(ids.cooking);
    const scores = res.items.map((i) => i.score);
    for (const s of scores) expect(s >= 0 && s <= 1).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('similar to a video leaves the video itself out', async () => {
    for (const method of METHODS) {
      const res = await searchVideos(ctx, params({ method, videoId: ids.harbour }));
      expect(res.items.map((i) => i.videoId)).not.toContain(ids.harbour);
    }
  });

  it('pages the top-k and totals min(k, matches)', async () => {
    const all = await searchVideos(ctx, params({ method: 'dense', description: 'night', k: 999 }));
    expect(all.total).toBe(3); // every completed video of the team has a vector
    const top2 = await searchVideos(
      ctx,
      params({ method: 'dense', description: 'night', k: 2, size: 1 }),
    );
    expect(top2.total).toBe(2);
    expect(top2.items).toHaveLength(1);
    const page2 = await searchVideos(
      ctx,
      params({ method: 'dense', description: 'night', k: 2, size: 1, page: 2 }),
    );
    expect(page2.items[0]?.videoId).toBe(all.items[1]?.videoId);
    const page3 = await searchVideos(
      ctx,
      params({ method: 'dense', description: 'night', k: 2, size: 1, page: 3 }),
    );
    expect(page3.items).toEqual([]);
    const sparse = await searchVideos(ctx, params({ method: 'sparse', description: 'ramen' }));
    expect(sparse.total).toBe(1);
  });
});

describe('searchScenes', () => {
  it.each(METHODS)('%s finds the scene by its description', async (method) => {
    const res = await searchScenes(
      ctx,
      params({ method, description: 'fireworks burst over water' }),
    );
    expect(res.items[0]).toMatchObject({ videoId: ids.harbour, sceneIndex: 1 });
  });

  it.each(METHODS)('%s finds a Japanese scene', async (method) => {
    const res = await searchScenes(
      ctx,
      params({ method, description: 'ライトアップされた東京タワー' }),
    );
    expect(res.items[0]).toMatchObject({ videoId: ids.tokyo, sceneIndex: 1 });
  });

  it('scope current keeps to the scenes of one video', async () => {
    for (const method of METHODS) {
      const res = await searchScenes(
        ctx,
        params({
          method,
          scope: 'current',
          videoId: ids.cooking,
          description: 'fireworks noodles',
        }),
      );
      expect(res.items.length).toBeGreaterThan(0);
      expect(res.items.every((i) => i.videoId === ids.cooking)).toBe(true);
    }
  });

  it('similar to a scene leaves the scene itself out', async () => {
    for (const method of METHODS) {
      const res = await searchScenes(ctx, params({ method, videoId: ids.cooking, sceneIndex: 0 }));
      const keys = res.items.map((i) => `${i.videoId}#${i.sceneIndex}`);
      expect(keys).not.toContain(`${ids.cooking}#0`);
      if (method !== 'dense') expect(keys[0]).toBe(`${ids.cooking}#1`);
    }
  });

  it('answers nothing for an item of another team', async () => {
    const res = await searchScenes(
      ctx,
      params({ teamId: other, videoId: ids.cooking, sceneIndex: 0 }),
    );
    expect(res).toEqual({ items: [], total: 0 });
  });
});

describe('hybrid', () => {
  // Its own team: four videos whose sparse and dense rankings disagree. Sparse finds a (the query's
  // words many times) then b (once); the dense vectors are set by hand: b closest, then c, d,
  // and a opposite. Fusion must lift b over a and keep c and d, found by dense alone.
  const QUERY = 'lighthouse storm';
  const fusion: Record<string, string> = {};
  let fusionTeam: string;

  function unit(v: number[]): number[] {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  }

  beforeAll(async () => {
    fusionTeam = await insertTeam(ctx, 'Fusion');
    const texts = {
      a: {
        title: 'Lighthouse storm',
        summary: 'A lighthouse in a storm, the storm at the lighthouse.',
      },
      b: { title: 'Coastal walk', summary: 'A walk along the coast past an old lighthouse.' },
      c: { title: 'Mountain cabin', summary: 'Snow falls on a wooden cabin in the hills.' },
      d: { title: 'City market', summary: 'Vendors sell fruit at a busy morning market.' },
    };
    for (const [name, text] of Object.entries(texts)) {
      fusion[name] = await insertVideo(ctx, { teamId: fusionTeam, ...text });
      await indexVideo(ctx, fusion[name]!);
    }
    const q = unit((await createProvider(ctx.config).embed([QUERY]))[0]!);
    // A unit vector orthogonal to the query's.
    const axis = q.map((_, i): number => (i === 0 ? 1 : 0));
    const dot = axis.reduce((sum, x, i) => sum + x * q[i]!, 0);
    const e = unit(axis.map((x, i) => x - dot * q[i]!));
    const at = (cos: number) => q.map((x, i) => cos * x + Math.sqrt(1 - cos * cos) * e[i]!);
    const cosines = { a: -0.5, b: 1, c: 0.8, d: 0.3 };
    for (const [name, cos] of Object.entries(cosines)) {
      await ctx.db.query('UPDATE videos SET embedding = $2::vector WHERE id = $1', [
        fusion[name],
        toVectorLiteral(at(cos)),
      ]);
    }
  });

  it('ranks differently from sparse alone and dense alone where they disagree', async () => {
    const ranking = async (method: (typeof METHODS)[number]) =>
      (
        await searchVideos(ctx, params({ teamId: fusionTeam, method, description: QUERY }))
      ).items.map((i) => Object.entries(fusion).find(([, id]) => id === i.videoId)?.[0]);
    expect(await ranking('sparse')).toEqual(['a', 'b']);
    expect(await ranking('dense')).toEqual(['b', 'c', 'd', 'a']);
    expect(await ranking('hybrid')).toEqual(['b', 'a', 'c', 'd']);
  });
});
