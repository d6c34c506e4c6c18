// Videos stored before migration 018 have no server digest: the recurring back-fill job hashes
// their stored files, so check-files counts them as in the archive (issue 42,
// docs/decisions/content-hash.md). On PGlite here and on PostgreSQL in `npm run test:postgres`.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillContentHashes } from '../../server/src/jobs/content-hash-backfill.ts';
import { productHandlers } from '../../server/src/jobs/handlers.ts';
import { JobName } from '../../server/src/jobs/names.ts';
import { JobWorker } from '../../server/src/jobs/worker.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signInTwoTeams, uploadVideo } from '../support/videos.ts';

let server: TestServer;
let token: string;

const sha = (b: Buffer): string => crypto.createHash('sha256').update(b).digest('hex');
const bytes = (n: number, seed: string): Buffer =>
  Buffer.concat([Buffer.from(seed), crypto.randomBytes(n - seed.length)]);

beforeAll(async () => {
  // No worker of the server's own: the test runs the job itself, when it wants.
  server = await startTestServer({ WORKER: 'off' });
  ({ token } = await signInTwoTeams(server));
});
afterAll(() => server.close());

/** An analysed video as migration 018 left one stored before it: size known, no digest. */
async function asBefore018(id: string): Promise<void> {
  await server.ctx.db.query(
    `UPDATE videos SET status = 'completed', content_sha256 = NULL, content_hashed_at = NULL,
       duplicate_of = NULL, file_size = source_size WHERE id = $1`,
    [id],
  );
}

const check = (files: unknown[]) =>
  server.call('POST', '/api/videos/check-files', { token, body: { files } });

async function row(id: string) {
  const [r] = await server.ctx.db.query<{
    status: string;
    failure_code: string | null;
    duplicate_of: string | null;
    content_sha256: string | null;
    content_hashed_at: Date | null;
    file_size: string | number | null;
  }>(
    `SELECT status, failure_code, duplicate_of, content_sha256, content_hashed_at, file_size
     FROM videos WHERE id = $1`,
    [id],
  );
  return r!;
}

describe('content-hash back-fill', () => {
  const file = bytes(60_000, 'legacy');
  const ids: string[] = [];
  let missing = '';

  beforeAll(async () => {
    // Two stored copies of the same bytes, from before the archive refused a second one.
    for (const filename of ['old.mp4', 'old-again.mp4']) {
      const id = await uploadVideo(server, token, file, { filename });
      await asBefore018(id);
      ids.push(id);
    }
    // One whose stored file has gone: skipped, and no obstacle to the others.
    const other = bytes(61_000, 'gone');
    missing = await uploadVideo(server, token, other, { filename: 'gone.mp4' });
    await asBefore018(missing);
    const [{ source_key }] = (await server.ctx.db.query<{ source_key: string }>(
      'SELECT source_key FROM videos WHERE id = $1',
      [missing],
    )) as [{ source_key: string }];
    await server.ctx.storage.delete(source_key);
  });

  it('makes an old video in-archive in check-files once the scheduled job has run', async () => {
    const ask = [{ key: 'old.mp4', size: file.length, sha256: sha(file) }];
    // Before: the gap this job closes.
    expect((await check(ask)).body.items[0].state).toBe('new');

    // Two workers, as in two processes: the schedule queues one run, and one of them runs it.
    const handlers = productHandlers();
    const workers = ['w1', 'w2'].map(
      (workerId) =>
        new JobWorker(server.ctx, {
          handlers,
          names: [JobName.BackfillContentHash],
          workerId,
        }),
    );
    const queued = await Promise.all(workers.map((w) => w.queueDueSchedules()));
    expect(queued.flat()).toEqual([JobName.BackfillContentHash]);
    const ran = await Promise.all(workers.map((w) => w.runOnce()));
    expect(ran.filter(Boolean)).toHaveLength(1);

    const res = await check(ask);
    expect(res.body.items[0]).toMatchObject({ key: 'old.mp4', state: 'in-archive' });
    // Either copy: both were hashed in one batch, and which digest was recorded first is open.
    expect(ids).toContain(res.body.items[0].video.id);
    for (const id of ids) {
      const r = await row(id);
      expect(r.content_sha256).toBe(sha(file));
      expect(r.content_hashed_at).not.toBeNull();
      expect(Number(r.file_size)).toBe(file.length);
    }
    expect((await row(missing)).content_hashed_at).toBeNull();
  });

  it('marks no old video a duplicate of another', async () => {
    for (const id of ids) {
      const r = await row(id);
      expect(r).toMatchObject({ status: 'completed', failure_code: null, duplicate_of: null });
    }
  });

  it('records each digest once when runs overlap, and has nothing left after', async () => {
    const id = await uploadVideo(server, token, bytes(62_000, 'later'), { filename: 'l.mp4' });
    await asBefore018(id);
    const runs = await Promise.all([
      backfillContentHashes(server.ctx),
      backfillContentHashes(server.ctx),
    ]);
    expect(runs.reduce((n, r) => n + r.hashed, 0)).toBe(1);
    expect((await backfillContentHashes(server.ctx)).hashed).toBe(0);
  });
});
