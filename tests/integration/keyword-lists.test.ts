// Each server process keeps keyword term lists in memory (server/src/search/term-lists.ts) and
// brings them up to date from the log of indexed and removed videos. Whatever happens to the
// archive between two searches (new videos, a video indexed again with other words, removed from
// the index, deleted, analysed again, a log pruned past a process), a process that held lists
// from before must answer exactly as one that reads every list afresh, and as exact BM25 does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/src/db/db.ts';
import { SCENE_DOC, VIDEO_DOC, VIDEO_SCENE_IDX } from '../../server/src/search/documents.ts';
import { indexVideo, removeVideoFromIndex } from '../../server/src/search/index-video.ts';
import { documentTerms, MAX_DF_SHARE, sparseSearch } from '../../server/src/search/sparse.ts';
import { keywordLists } from '../../server/src/search/term-lists.ts';
import { mulberry32 } from '../../server/src/lib/seeded-random.ts';
import { exactBm25, type ListedQuery } from '../support/exact-bm25.ts';
import { otherProcess } from '../support/other-process.ts';
import {
  insertTeam,
  insertVideo,
  makeSearchCtx,
  type SearchTestCtx,
} from '../support/search-fixtures.ts';

const rnd = mulberry32(17);
// Every scene four words long: the scenes' average length, and with it their impacts, never move,
// so what is checked here is the lists' catching up, not a re-read.
const word = (): string => `k${Math.floor(Math.exp(rnd() * Math.log(60)))}`;
const scene = (): { description: string } => ({
  description: Array.from({ length: 4 }, word).join(' '),
});

let ctx: SearchTestCtx;
let team: string;
let otherTeam: string;
const ids: string[] = [];
/** A process that searched before every change, one that searched some, and one of 1 byte. */
let warm: Db;
let half: Db;
let tiny: Db;

async function addVideo(teamId = team): Promise<string> {
  const id = await insertVideo(ctx, {
    teamId,
    title: 'clip',
    scenes: Array.from({ length: 3 + Math.floor(rnd() * 5) }, scene),
  });
  await indexVideo(ctx, id);
  return id;
}

function queries(): ListedQuery[] {
  const text = Array.from({ length: 16 }, (_, i) => ({
    teamId: team,
    kind: SCENE_DOC,
    terms: new Map(Array.from({ length: 1 + (i % 3) }, () => [word(), 1])),
    limit: 5,
  })) satisfies ListedQuery[];
  return [...text, { teamId: team, kind: VIDEO_DOC, terms: new Map([['clip', 1]]), limit: 50 }];
}

async function similar(): Promise<ListedQuery[]> {
  const live = ids.filter((_, i) => i % 5 === 1).slice(0, 3);
  return Promise.all(
    live.map(async (id) => ({
      teamId: team,
      kind: SCENE_DOC,
      terms: await documentTerms(ctx.db, team, id, 0),
      limit: 5,
      excludeVideoId: id,
      excludeSceneIdx: 0,
    })),
  );
}

const keys = (hits: { videoId: string; sceneIdx?: number; score: number }[]): string[] =>
  hits.map((h) => `${h.videoId}#${h.sceneIdx ?? VIDEO_SCENE_IDX}#${h.score.toFixed(9)}`);

/** Every process answers as one that reads every list afresh, and as exact BM25 ranks. */
async function expectCurrent(qs: ListedQuery[]): Promise<void> {
  for (const q of qs) {
    const fresh = await sparseSearch(otherProcess(ctx.db), q);
    for (const db of [warm, half, tiny])
      expect(keys(await sparseSearch(db, q))).toEqual(keys(fresh));
    const exact = await exactBm25(ctx.db, q);
    expect(fresh.map((h) => `${h.videoId}#${h.sceneIdx ?? -1}`)).toEqual(
      exact.map((h) => `${h.videoId}#${q.kind === VIDEO_DOC ? -1 : h.sceneIdx}`),
    );
  }
}

let fixed: ListedQuery[];

beforeAll(async () => {
  ctx = await makeSearchCtx();
  team = await insertTeam(ctx, 'Lists');
  otherTeam = await insertTeam(ctx, 'Elsewhere');
  for (let i = 0; i < 30; i++) ids.push(await addVideo());
  fixed = queries();
  await addVideo(otherTeam);
  warm = ctx.db;
  half = otherProcess(ctx.db);
  tiny = otherProcess(ctx.db);
  keywordLists(tiny).budget = 1;
  keywordLists(half).deadSweep = 1;
  for (const q of [...fixed, ...(await similar())]) await sparseSearch(warm, q);
  for (const q of fixed.slice(0, 8)) await sparseSearch(half, q);
}, 120_000);

afterAll(async () => {
  await ctx?.db.close();
});

describe('keyword lists held in memory', () => {
  it('answer as exact BM25 does, for this team only', async () => {
    await expectCurrent([...fixed, ...(await similar())]);
    for (const q of fixed.slice(0, 4))
      expect((await sparseSearch(warm, q)).length).toBeGreaterThan(0);
    const found = await sparseSearch(warm, fixed.at(-1)!);
    expect(found.length).toBe(30);
  });

  it('leave out of a "similar" query the terms of more than a tenth of the documents', async () => {
    const df = new Map(
      (
        await ctx.db.query<{ term: string; df: number }>(
          'SELECT term, df FROM search_terms WHERE team_id = $1 AND kind = $2',
          [team, SCENE_DOC],
        )
      ).map((r) => [r.term, r.df]),
    );
    const [stats] = await ctx.db.query<{ n: number }>(
      'SELECT n_docs AS n FROM search_corpus_stats WHERE team_id = $1 AND kind = $2',
      [team, SCENE_DOC],
    );
    let common = 0;
    for (const id of ids.slice(0, 10)) {
      const all = await documentTerms(ctx.db, team, id, 0);
      const distinctive = await documentTerms(ctx.db, team, id, 0, 48, 0);
      for (const term of all.keys()) {
        const isCommon = df.get(term)! > stats!.n * MAX_DF_SHARE;
        if (isCommon) common++;
        expect(distinctive.has(term)).toBe(!isCommon);
      }
    }
    expect(common).toBeGreaterThan(0);
  });

  it('take in new videos, reading only their postings', async () => {
    const lists = keywordLists(warm);
    const before = lists.loadedPostings;
    const id = await addVideo();
    ids.push(id);
    await sparseSearch(warm, fixed[0]!);
    const [own] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM search_postings WHERE video_id = $1 AND kind = $2',
      [id, SCENE_DOC],
    );
    expect(lists.loadedPostings - before).toBeGreaterThan(0);
    expect(lists.loadedPostings - before).toBeLessThanOrEqual(own!.n);
    await expectCurrent([...fixed, ...(await similar())]);
  });

  it('take in a video whose postings a list read afresh holds already', async () => {
    // A search read the statistics, then a video was indexed before its lists were read.
    const [stats] = await ctx.db.query<{ version: string; avgdl: number }>(
      'SELECT version::text, impact_avgdl AS avgdl FROM search_corpus_stats WHERE team_id = $1 AND kind = $2',
      [team, SCENE_DOC],
    );
    ids.push(await addVideo());
    const vocabulary = Array.from({ length: 60 }, (_, i) => `k${i}`);
    await keywordLists(half).open(
      team,
      SCENE_DOC,
      Number(stats!.version),
      stats!.avgdl,
      vocabulary,
    );
    await expectCurrent(
      vocabulary.map((t) => ({
        teamId: team,
        kind: SCENE_DOC,
        terms: new Map([[t, 1]]),
        limit: 5,
      })),
    );
  });

  it('follow a video indexed again with other words', async () => {
    for (const id of [ids[2]!, ids[11]!]) {
      await ctx.db.query('UPDATE scenes SET description = $2 WHERE video_id = $1', [
        id,
        'k1 k2 k3 k50',
      ]);
      await indexVideo(ctx, id);
    }
    await expectCurrent([
      ...fixed,
      { teamId: team, kind: SCENE_DOC, terms: new Map([['k50', 1]]), limit: 10 },
    ]);
  });

  it('drop videos removed from the index or deleted, and hide those being analysed', async () => {
    await removeVideoFromIndex(ctx, ids[4]!);
    await ctx.db.query('DELETE FROM videos WHERE id = $1', [ids[6]!]);
    await ctx.db.query("UPDATE videos SET status = 'analyzing' WHERE id = $1", [ids[8]!]);
    await expectCurrent(fixed);
    const all = await sparseSearch(warm, fixed.at(-1)!);
    expect(all.map((h) => h.videoId)).not.toContain(ids[8]);
    await ctx.db.query("UPDATE videos SET status = 'completed' WHERE id = $1", [ids[8]!]);
    await expectCurrent(fixed);
  });

  it('read everything again when the log no longer reaches back to them', async () => {
    ids.push(await addVideo());
    await ctx.db.query('DELETE FROM search_changes');
    await removeVideoFromIndex(ctx, ids[9]!);
    await expectCurrent([...fixed, ...(await similar())]);
  });

  it('keep within their memory budget', async () => {
    await sparseSearch(tiny, fixed[1]!);
    const one = keywordLists(tiny).bytes();
    await sparseSearch(tiny, fixed[2]!);
    await sparseSearch(tiny, fixed[1]!);
    expect(keywordLists(tiny).bytes()).toBe(one);
    expect(keywordLists(warm).bytes()).toBeGreaterThan(one);
  });
});
