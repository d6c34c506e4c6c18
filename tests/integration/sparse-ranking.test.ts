// The keyword search (server/src/search/sparse.ts, lists in memory) must rank as exact BM25 does
// (tests/support/exact-bm25.ts: every posting scored, frequencies counted, live average length),
// on a generated archive indexed the way the pipeline indexes: Zipf-like words, scenes of varied
// length, unfinished videos, single common words (many exact ties) and "similar to" queries of
// many terms. bench/search-latency.ts prints the same recall at 200k and 1M scenes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENE_DOC, VIDEO_DOC, VIDEO_SCENE_IDX } from '../../server/src/search/documents.ts';
import { IMPACT_DRIFT } from '../../server/src/search/impacts.ts';
import { indexVideo, removeVideoFromIndex } from '../../server/src/search/index-video.ts';
import { documentTerms, sparseSearch, type SparseQuery } from '../../server/src/search/sparse.ts';
import { exactBm25, recallAtK, type ListedQuery } from '../support/exact-bm25.ts';
import {
  insertTeam,
  insertVideo,
  makeSearchCtx,
  type SearchTestCtx,
} from '../support/search-fixtures.ts';
import { mulberry32 } from '../../server/src/lib/seeded-random.ts';

const VIDEOS = 40;
const VOCAB = 400;
const QUERIES = 40;

let ctx: SearchTestCtx;
let team: string;
const videoIds: string[] = [];

const rnd = mulberry32(2026);
const word = (): string => `w${Math.floor(Math.exp(rnd() * Math.log(VOCAB)))}`;
const words = (n: number): string => Array.from({ length: n }, word).join(' ');
const between = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));

beforeAll(async () => {
  ctx = await makeSearchCtx();
  team = await insertTeam(ctx, 'Ranking');
  // Lengths grow as the archive grows, so the impacts' average length is refreshed on the way.
  for (let v = 0; v < VIDEOS; v++) {
    const id = await insertVideo(ctx, {
      teamId: team,
      title: words(2),
      summary: words(between(3, 10 + 2 * v)),
      status: v % 9 === 4 ? 'analyzing' : 'completed',
      scenes: Array.from({ length: between(3, 12) }, () => ({
        description: words(between(2, 6 + Math.floor(v / 3))),
      })),
    });
    await indexVideo(ctx, id);
    videoIds.push(id);
  }
  // A removal and a re-index move the statistics as a user's edits would.
  await removeVideoFromIndex(ctx, videoIds[3]!);
  await ctx.db.query('DELETE FROM videos WHERE id = $1', [videoIds[5]]);
  await indexVideo(ctx, videoIds[7]!);
}, 600_000);

afterAll(async () => {
  await ctx?.db.close();
});

interface Pair {
  query: ListedQuery;
  /** "Similar to": the item itself, whose terms the search chooses in its own statement. */
  asked?: SparseQuery;
}

function textQueries(kind: typeof VIDEO_DOC | typeof SCENE_DOC): ListedQuery[] {
  return Array.from({ length: QUERIES }, (_, i) => ({
    teamId: team,
    kind,
    // One word in four alone: a common single word ties across hundreds of documents.
    terms: new Map(
      Array.from({ length: i % 4 === 0 ? 1 : between(2, 4) }, () => [word(), between(1, 2)]),
    ),
    limit: i % 3 === 0 ? 3 : 10,
  }));
}

async function similarQueries(): Promise<Pair[]> {
  const out: Pair[] = [];
  for (const [i, id] of videoIds.entries()) {
    if (i % 3 !== 0 || i === 5) continue;
    // A video like this video; scenes like its scene 1; and, every other video, scenes like the
    // whole video (its terms chosen among the videos', weighed among the scenes').
    const asks = [
      [VIDEO_DOC, VIDEO_SCENE_IDX],
      [SCENE_DOC, 1],
      [SCENE_DOC, VIDEO_SCENE_IDX],
    ] as const;
    for (const [kind, sceneIdx] of asks.slice(0, i % 6 === 0 ? 3 : 2)) {
      const query = {
        teamId: team,
        kind,
        terms: await documentTerms(ctx.db, team, id, sceneIdx),
        limit: 10,
        excludeVideoId: id,
        excludeSceneIdx: kind === SCENE_DOC && sceneIdx >= 0 ? sceneIdx : undefined,
      };
      out.push({ query, asked: { ...query, terms: { videoId: id, sceneIdx } } });
    }
  }
  return out;
}

async function compare(
  queries: (ListedQuery | Pair)[],
): Promise<{ recall: number; sameOrder: number }> {
  let hits = 0;
  let of = 0;
  let sameOrder = 0;
  for (const q of queries) {
    const { query, asked = query } = 'query' in q ? q : { query: q };
    const exact = await exactBm25(ctx.db, query);
    const fast = await sparseSearch(ctx.db, asked);
    const r = recallAtK(exact, fast);
    hits += r.hits;
    of += r.of;
    const key = (h: { videoId: string; sceneIdx?: number }): string =>
      `${h.videoId}#${h.sceneIdx ?? -1}`;
    if (exact.map(key).join() === fast.map(key).join()) sameOrder++;
  }
  expect(of).toBeGreaterThan(queries.length); // the queries do find things
  return { recall: hits / of, sameOrder: sameOrder / queries.length };
}

describe('keyword search against exact BM25', () => {
  it('ranks scenes as exact BM25 does', async () => {
    const { recall, sameOrder } = await compare(textQueries(SCENE_DOC));
    expect(recall).toBeGreaterThanOrEqual(0.99);
    expect(sameOrder).toBeGreaterThanOrEqual(0.95);
  });

  it('ranks videos as exact BM25 does', async () => {
    const { recall, sameOrder } = await compare(textQueries(VIDEO_DOC));
    expect(recall).toBeGreaterThanOrEqual(0.99);
    expect(sameOrder).toBeGreaterThanOrEqual(0.95);
  });

  it('ranks "similar to" queries of many terms as exact BM25 does', async () => {
    const { recall, sameOrder } = await compare(await similarQueries());
    expect(recall).toBeGreaterThanOrEqual(0.99);
    expect(sameOrder).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps scope current to one video, with the exact ranking', async () => {
    const queries = textQueries(SCENE_DOC).map((q, i) => ({
      ...q,
      onlyVideoId: videoIds[(i * 7) % VIDEOS],
    }));
    const { recall } = await compare(queries.filter((_, i) => (i * 7) % VIDEOS !== 5));
    expect(recall).toBe(1);
  });

  it('keeps document frequencies and the impacts average length in step with the postings', async () => {
    const drift = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT team_id, kind, term, count(*)::int AS df FROM search_postings GROUP BY 1, 2, 3
       ) p FULL JOIN search_terms t USING (team_id, kind, term)
       WHERE p.df IS DISTINCT FROM t.df`,
    );
    expect(drift[0]!.n).toBe(0);
    const stats = await ctx.db.query<{ moved: number }>(
      `SELECT abs(total_len::float8 / n_docs / impact_avgdl - 1) AS moved
       FROM search_corpus_stats WHERE team_id = $1`,
      [team],
    );
    expect(stats).toHaveLength(2);
    for (const s of stats) expect(s.moved).toBeLessThanOrEqual(IMPACT_DRIFT);
  });
});
