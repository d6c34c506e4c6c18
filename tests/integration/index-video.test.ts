// indexVideo builds postings, statistics and vectors from the database, idempotently;
// removeVideoFromIndex and deleting the video take them away again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockTeamPeople } from '../../server/src/people/store.ts';
import {
  indexVideo,
  indexVideoKeywords,
  removeVideoFromIndex,
} from '../../server/src/search/index-video.ts';
import {
  insertTeam,
  insertVideo,
  makeSearchCtx,
  type SearchTestCtx,
} from '../support/search-fixtures.ts';

let ctx: SearchTestCtx;
let team: string;

async function counts(videoId: string) {
  const [row] = await ctx.db.query<{
    postings: number;
    docs: number;
    vec: number;
    scene_vecs: number;
  }>(
    `SELECT (SELECT count(*)::int FROM search_postings WHERE video_id = $1) AS postings,
            (SELECT count(*)::int FROM search_documents WHERE video_id = $1) AS docs,
            (SELECT count(*)::int FROM videos WHERE id = $1 AND embedding IS NOT NULL) AS vec,
            (SELECT count(*)::int FROM scenes WHERE video_id = $1 AND embedding IS NOT NULL) AS scene_vecs`,
    [videoId],
  );
  return row!;
}

async function stats() {
  return ctx.db.query<{ kind: number; n_docs: number; total_len: string }>(
    'SELECT kind, n_docs, total_len FROM search_corpus_stats WHERE team_id = $1 ORDER BY kind',
    [team],
  );
}

beforeAll(async () => {
  ctx = await makeSearchCtx();
  team = await insertTeam(ctx, 'Acme');
});
afterAll(async () => {
  await ctx.db.close();
});

describe('indexVideo', () => {
  it('indexes the video and its scenes, the same way twice', async () => {
    const id = await insertVideo(ctx, {
      teamId: team,
      title: 'Harbour fireworks',
      summary: '東京の花火大会',
      tags: ['fireworks'],
      people: ['Maria'],
      scenes: [{ description: 'Crowd on the pier', captions: 'look up' }, { description: '' }],
    });
    await indexVideo(ctx, id);
    const first = await counts(id);
    // Empty scene text: no document and no vector, rather than a zero vector.
    expect(first).toMatchObject({ docs: 2, vec: 1, scene_vecs: 1 });
    const terms = await ctx.db.query<{ term: string }>(
      'SELECT term FROM search_postings WHERE video_id = $1 AND scene_idx = -1 ORDER BY term',
      [id],
    );
    expect(terms.map((t) => t.term)).toEqual(
      expect.arrayContaining([
        'harbour',
        'firework',
        'maria',
        'look',
        '東京',
        '花火',
        '~花火',
        '~火大',
      ]),
    );
    const statsFirst = await stats();
    await indexVideo(ctx, id);
    expect(await counts(id)).toEqual(first);
    expect(await stats()).toEqual(statsFirst);
    expect(statsFirst.map((s) => s.n_docs)).toEqual([1, 1]);

    await removeVideoFromIndex(ctx, id);
    expect(await counts(id)).toEqual({ postings: 0, docs: 0, vec: 0, scene_vecs: 0 });
    expect((await stats()).map((s) => [s.n_docs, Number(s.total_len)])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('keeps the statistics right when a video row is deleted outright', async () => {
    const id = await insertVideo(ctx, {
      teamId: team,
      title: 'Short clip',
      scenes: [{ description: 'a dog' }],
    });
    await indexVideo(ctx, id);
    expect((await stats()).map((s) => s.n_docs)).toEqual([1, 1]);
    await ctx.db.query('DELETE FROM videos WHERE id = $1', [id]);
    expect((await stats()).map((s) => s.n_docs)).toEqual([0, 0]);
  });

  it('does nothing for a video that does not exist', async () => {
    await expect(indexVideo(ctx, '00000000-0000-0000-0000-000000000000')).resolves.toBeUndefined();
  });

  // A merge touches several videos in one transaction (server/src/people/reindex.ts) while the
  // re-embeddings an earlier correction queued run beside it. On PostgreSQL's pool each took the
  // other's rows in the opposite order: a deadlock, and a 500 for the person correcting.
  it('runs beside a people correction across two videos without a deadlock', async () => {
    const [v, w] = [
      await insertVideo(ctx, { teamId: team, title: 'Pier', scenes: [{ description: 'Ann' }] }),
      await insertVideo(ctx, { teamId: team, title: 'Quay', scenes: [{ description: 'Ann' }] }),
    ];
    const correction = () =>
      ctx.db.tx(async (q) => {
        await lockTeamPeople(q, team);
        await indexVideoKeywords(q, v, new Set([0]));
        await indexVideoKeywords(q, w, new Set([0]));
      });
    const rounds = Array.from({ length: 12 }, () =>
      Promise.all([correction(), indexVideo(ctx, w), indexVideo(ctx, v), correction()]),
    );
    await expect(Promise.all(rounds)).resolves.toBeDefined();
    expect((await counts(w)).docs).toBe(2);
  });
});
