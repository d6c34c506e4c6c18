// A server reads the HNSW graphs into the embedded database's buffers once started
// (server/src/search/prewarm.ts): after that, a dense search finds every page of the graph it
// visits in the buffers instead of reading it from disk. It reads keyword lists ahead too: the
// videos' own, however rare their terms, so that a "similar videos" query reads none.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.ts';
import type { Db } from '../../server/src/db/db.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { openPglite } from '../../server/src/db/pglite.ts';
import { toVectorLiteral } from '../../server/src/db/vector.ts';
import { indexVideo } from '../../server/src/search/index-video.ts';
import { VIDEO_DOC, VIDEO_SCENE_IDX } from '../../server/src/search/documents.ts';
import { preloadLists, prewarmGraphs } from '../../server/src/search/prewarm.ts';
import { sparseSearch } from '../../server/src/search/sparse.ts';
import { keywordLists } from '../../server/src/search/term-lists.ts';
import { insertTeam, insertVideo } from '../support/search-fixtures.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-prewarm-'));
let query = '';

beforeAll(async () => {
  const db = await openPglite(dir);
  await migrate(db);
  const ctx = { db, config: loadConfig({ DATA_DIR: dir }) };
  const team = await insertTeam(ctx, 'Prewarm');
  for (let v = 0; v < 6; v++) {
    const scenes = Array.from({ length: 60 }, (_, i) => ({
      description: `a lighthouse keeper climbs stair ${v * 60 + i} at dusk, wave ${i * v}`,
    }));
    await indexVideo(ctx, await insertVideo(ctx, { teamId: team, title: `coast ${v}`, scenes }));
  }
  const [scene] = await db.query<{ e: string }>('SELECT embedding::text AS e FROM scenes LIMIT 1');
  query = toVectorLiteral(JSON.parse(scene!.e) as number[]);
  await db.close();
}, 120_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Pages a dense search had to read from disk: the graph's and the rows' it returns. */
async function graphPagesRead(db: Db): Promise<number> {
  const plan = await db.query<Record<string, string>>(
    `EXPLAIN (ANALYZE, BUFFERS) SELECT idx FROM scenes ORDER BY embedding <=> $1::vector LIMIT 10`,
    [query],
  );
  const text = plan.map((r) => Object.values(r)[0]).join('\n');
  expect(text).toContain('scenes_embedding_hnsw');
  return Number(/Index Scan[\s\S]*?read=(\d+)/.exec(text)?.[1] ?? 0);
}

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openPglite(dir);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe('prewarmGraphs', () => {
  it('leaves a dense search none of the graph to read from disk', async () => {
    const before = await withDb(graphPagesRead);
    expect(before).toBeGreaterThan(0);
    const after = await withDb(async (db) => {
      expect(await prewarmGraphs(db)).toBeGreaterThan(2);
      return graphPagesRead(db);
    });
    // What is left is the ten rows' own pages in the table (12 against 100 here).
    expect(after).toBeLessThan(before / 4);
  });

  it('stops between statements when the server closes', async () => {
    const read = await withDb(async (db) => {
      let calls = 0;
      return prewarmGraphs(db, () => calls++ > 0);
    });
    const all = await withDb((db) => prewarmGraphs(db));
    expect(read).toBeLessThan(all);
  });
});

describe('preloadLists', () => {
  it("reads every list of the videos' documents: a similar-videos query then reads none", async () => {
    await withDb(async (db) => {
      const lists = keywordLists(db);
      const postings = await preloadLists(db, lists);
      expect(lists.loadedPostings).toBe(postings);
      const videos = await db.query<{ id: string; team_id: string }>(
        'SELECT id, team_id FROM videos ORDER BY title',
      );
      for (const v of videos) {
        const hits = await sparseSearch(db, {
          teamId: v.team_id,
          kind: VIDEO_DOC,
          // The item's rarest terms first: its stair numbers, each in one video's document.
          terms: { videoId: v.id, sceneIdx: VIDEO_SCENE_IDX },
          limit: 10,
          excludeVideoId: v.id,
        });
        expect(hits.length).toBeGreaterThan(0);
      }
      expect(lists.loadedPostings).toBe(postings);
    });
  });
});
