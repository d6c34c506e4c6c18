// A bare AppContext on an in-memory PGlite (no HTTP), and rows inserted directly with SQL, for
// the search and index tests.
import { loadConfig } from '../../server/src/config.ts';
import type { AppContext } from '../../server/src/context.ts';
import { openTestDb } from './test-db.ts';

export type SearchTestCtx = Pick<AppContext, 'db' | 'config'>;

export async function makeSearchCtx(env: Record<string, string> = {}): Promise<SearchTestCtx> {
  const db = await openTestDb();
  return { db, config: loadConfig({ DATA_DIR: '/tmp/unused', ...env }) };
}

export async function insertTeam(ctx: SearchTestCtx, name: string): Promise<string> {
  const rows = await ctx.db.query<{ id: string }>(
    'INSERT INTO teams (name) VALUES ($1) RETURNING id',
    [name],
  );
  return rows[0]!.id;
}

export interface FixtureVideo {
  teamId: string;
  title: string;
  summary?: string;
  tags?: string[];
  about?: string;
  status?: string;
  language?: string;
  people?: string[];
  scenes?: { description: string; captions?: string }[];
}

export async function insertVideo(ctx: SearchTestCtx, v: FixtureVideo): Promise<string> {
  const rows = await ctx.db.query<{ id: string }>(
    `INSERT INTO videos (team_id, filename, title, summary, tags, about_this_video, status, output_language)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      v.teamId,
      `${v.title}.mp4`,
      v.title,
      v.summary ?? '',
      JSON.stringify((v.tags ?? []).map((name) => ({ name }))),
      v.about ?? '',
      v.status ?? 'completed',
      v.language ?? 'en',
    ],
  );
  const id = rows[0]!.id;
  for (const [i, name] of (v.people ?? []).entries()) {
    await ctx.db.query(
      'INSERT INTO video_people (video_id, position, name, image_key) VALUES ($1, $2, $3, $4)',
      [id, i, name, `input/${id}/people/${i}.jpg`],
    );
  }
  for (const [i, s] of (v.scenes ?? []).entries()) {
    await ctx.db.query(
      `INSERT INTO scenes (video_id, idx, start_ms, end_ms, description, captions)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, i, i * 5000, (i + 1) * 5000, s.description, s.captions ?? ''],
    );
  }
  return id;
}
