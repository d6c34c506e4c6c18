// The embedded database has no autovacuum: the hourly vacuum-search job keeps the keyword index's
// visibility map and planner statistics, without which every index-only scan of a search visits
// the table too (server/src/search/vacuum.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobName } from '../../server/src/jobs/names.ts';
import { SCHEDULES } from '../../server/src/jobs/schedules.ts';
import { indexVideo, removeVideoFromIndex } from '../../server/src/search/index-video.ts';
import { vacuumSearch } from '../../server/src/search/vacuum.ts';
import {
  insertTeam,
  insertVideo,
  makeSearchCtx,
  type SearchTestCtx,
} from '../support/search-fixtures.ts';

let ctx: SearchTestCtx;

beforeAll(async () => {
  ctx = await makeSearchCtx();
  const team = await insertTeam(ctx, 'Vacuum');
  const ids: string[] = [];
  for (let v = 0; v < 6; v++) {
    const scenes = Array.from({ length: 30 }, (_, i) => ({
      description: `harbour crane ${v} ${i}`,
    }));
    ids.push(
      await insertVideo(ctx, { teamId: team, title: `ship ${v}`, summary: 'cargo', scenes }),
    );
    await indexVideo(ctx, ids[v]!);
  }
  await removeVideoFromIndex(ctx, ids[0]!);
});

afterAll(async () => {
  await ctx?.db.close();
});

interface Stats extends Record<string, unknown> {
  allVisible: number;
  estimated: number;
  rows: number;
}

async function postingStats(): Promise<Stats> {
  const [row] = await ctx.db.query<Stats>(
    `SELECT c.relallvisible AS "allVisible", c.reltuples::int AS estimated,
            (SELECT count(*)::int FROM search_postings) AS rows
     FROM pg_class c WHERE c.relname = 'search_postings'`,
  );
  return row!;
}

describe('vacuum-search', () => {
  it('runs hourly', () => {
    const schedule = SCHEDULES.find((s) => s.name === JobName.VacuumSearch);
    expect(schedule?.everyMs).toBe(60 * 60 * 1000);
  });

  it('leaves the postings all visible and counted for the planner', async () => {
    const before = await postingStats();
    expect(before.allVisible).toBe(0);
    expect(before.estimated).not.toBe(before.rows);
    await vacuumSearch(ctx.db);
    const after = await postingStats();
    expect(after.allVisible).toBeGreaterThan(0);
    expect(after.estimated).toBe(after.rows);
  });

  it('keeps a day of the changes log that server processes follow', async () => {
    const before = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM search_changes',
    );
    expect(before[0]!.n).toBeGreaterThan(2);
    await ctx.db.query(
      `UPDATE search_changes SET at = now() - interval '25 hours'
       WHERE version = (SELECT min(version) FROM search_changes)`,
    );
    await vacuumSearch(ctx.db);
    const after = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM search_changes',
    );
    expect(after[0]!.n).toBeGreaterThan(0);
    expect(after[0]!.n).toBeLessThan(before[0]!.n);
  });
});
