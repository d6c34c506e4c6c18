// The privacy policy's retention: 3 years after upload a video and everything made from it is
// deleted by the daily scheduled job, on the local disk and in S3. The server runs as `npm start`
// does (inline workers); its clock is set forward and the scheduler does the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompletedVideo, teamOf, type SeededVideo } from '../support/seed.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DAY = 24 * 3600_000;
const YEAR = 365 * DAY;

function allKeys(v: SeededVideo): string[] {
  return [
    v.keys.source,
    ...(v.keys.thumbnail ? [v.keys.thumbnail] : []),
    ...v.keys.scenes.flatMap((s) => [s.thumbnail, s.clip, ...s.frames]),
  ];
}

describe.each([
  { storage: 'local', s3: false },
  { storage: 's3 (s3rver)', s3: true },
])('retention on $storage storage', ({ s3: useS3 }) => {
  let s3: TestS3 | undefined;
  let server: TestServer;
  let offset = 0;
  let teamId: string;

  beforeAll(async () => {
    let env: Record<string, string> = {};
    if (useS3) {
      s3 = await startTestS3();
      // s3rver's built-in account; the SDK reads the usual AWS variables.
      process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
      process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
      env = s3.env;
    }
    server = await startTestServer(env);
    const realNow = Date.now;
    server.ctx.now = () => realNow() + offset;
    teamId = await teamOf(
      server.ctx,
      await server.createUser({ email: 'keeper@example.com', password: 'password1' }),
    );
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  async function exists(id: string): Promise<boolean> {
    return (await server.ctx.db.query('SELECT 1 FROM videos WHERE id = $1', [id])).length > 0;
  }

  async function storedKeys(v: SeededVideo): Promise<string[]> {
    const found: string[] = [];
    for (const key of allKeys(v)) if (await server.ctx.storage.stat(key)) found.push(key);
    return found;
  }

  /**
   * The daily job's runs seen so far, by id: finished jobs are pruned a week after they end, so
   * the runs are counted as they appear instead of all at once at the end.
   */
  const runs = new Set<string>();
  async function noteRuns(): Promise<void> {
    const rows = await server.ctx.db.query<{ id: string }>(
      `SELECT id FROM jobs WHERE name = 'delete-expired-videos'`,
    );
    for (const r of rows) runs.add(r.id);
  }

  /** Moves the clock and waits for the daily run to delete `gone`. */
  async function forwardUntilDeleted(toOffset: number, gone: SeededVideo): Promise<void> {
    await noteRuns();
    offset = toOffset;
    const deadline = Date.now() + 30_000;
    while ((await exists(gone.id)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await noteRuns();
  }

  it('deletes a video 3 years after upload, with its index entries and every file', async () => {
    const scenes = [{ description: 'a pelican on the pier' }, { description: 'harbour lights' }];
    const now = server.ctx.now();
    const older = await seedCompletedVideo(server.ctx, {
      teamId,
      title: 'Older',
      scenes,
      createdAt: new Date(now - YEAR),
    });
    // Recorded long ago but uploaded today: the upload time counts, not the recording date.
    const newer = await seedCompletedVideo(server.ctx, {
      teamId,
      title: 'Newer',
      scenes,
      createdAt: new Date(now),
      videoDate: '2001-01-01T00:00:00.000',
    });
    expect(await storedKeys(older)).toEqual(allKeys(older));

    // Two years and a few days later the older one is past 3 years; the newer one is not.
    await forwardUntilDeleted(2 * YEAR + 3 * DAY, older);
    expect(await exists(older.id)).toBe(false);
    expect(await storedKeys(older)).toEqual([]);
    for (const table of ['scenes', 'search_postings', 'search_documents', 'pipeline_steps']) {
      const rows = await server.ctx.db.query(`SELECT 1 FROM ${table} WHERE video_id = $1`, [
        older.id,
      ]);
      expect(rows, table).toEqual([]);
    }
    expect(await exists(newer.id)).toBe(true);
    expect(await storedKeys(newer)).toEqual(allKeys(newer));
    const search = await server.ctx.db.query('SELECT 1 FROM search_postings WHERE video_id = $1', [
      newer.id,
    ]);
    expect(search.length).toBeGreaterThan(0);

    // Another year on, its turn comes.
    await forwardUntilDeleted(3 * YEAR + 5 * DAY, newer);
    expect(await exists(newer.id)).toBe(false);
    expect(await storedKeys(newer)).toEqual([]);
    // The daily job ran once per day the clock crossed, however many times the worker looked.
    expect(runs.size).toBe(3);
  }, 120_000);
});
