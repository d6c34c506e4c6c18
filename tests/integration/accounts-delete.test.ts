// DELETE /api/users/{id}: only oneself; the account, its sessions, its videos with their files,
// scenes, search entries and running analysis go; a team never loses its last admin while
// members remain.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../../server/src/accounts/delete-account.ts';
import type { Storage } from '../../server/src/storage/storage.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;

async function addVideo(ownerId: string): Promise<string> {
  const [team] = await server.ctx.db.query<{ team_id: string }>(
    'SELECT team_id FROM users WHERE id = $1',
    [ownerId],
  );
  const [video] = await server.ctx.db.query<{ id: string }>(
    "INSERT INTO videos (team_id, owner_id, filename, status) VALUES ($1, $2, 'a.mp4', 'completed') RETURNING id",
    [team!.team_id, ownerId],
  );
  const id = video!.id;
  await server.ctx.db.query(
    "INSERT INTO scenes (video_id, idx, start_ms, end_ms, description) VALUES ($1, 0, 0, 1000, 'scene')",
    [id],
  );
  await server.ctx.storage.put(`input/${id}/source.mp4`, Buffer.from('video'));
  await server.ctx.storage.put(`output/${id}/thumbnail.jpg`, Buffer.from('image'));
  return id;
}

const filesDir = (kind: 'input' | 'output', id: string): string =>
  path.join(server.dataDir, 'files', kind, id);

beforeAll(async () => {
  server = await startTestServer();
}, 180_000); // starting a server takes long on a busy machine
afterAll(() => server.close());

describe('DELETE /api/users/{id}', () => {
  it('refuses to delete someone else (403)', async () => {
    const me = await server.createUser({ email: 'pat@example.com', password: 'Pat123456' });
    const other = await server.createUser({ email: 'quinn@example.com', password: 'Quinn1234' });
    const token = await server.login('pat@example.com', 'Pat123456');
    const res = await server.call('DELETE', `/api/users/${other}`, { token });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/own account/);
    const nonsense = await server.call('DELETE', '/api/users/not-a-uuid', { token });
    expect(nonsense.status).toBe(403);
    expect(me).not.toBe(other);
  });

  it('asks for the current password: missing is 422, wrong is 400, and nothing is deleted', async () => {
    const id = await server.createUser({ email: 'vera@example.com', password: 'Vera12345' });
    const token = await server.login('vera@example.com', 'Vera12345');
    const missing = await server.call('DELETE', `/api/users/${id}`, { token });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'current_password'] });
    const wrong = await server.call('DELETE', `/api/users/${id}`, {
      token,
      body: { current_password: 'Guess1234' },
    });
    expect(wrong).toEqual({
      status: 400,
      body: { detail: 'The current password is incorrect.' },
    });
    expect((await server.call('GET', '/api/profile', { token })).status).toBe(200);
    const right = await server.call('DELETE', `/api/users/${id}`, {
      token,
      body: { current_password: 'Vera12345' },
    });
    expect(right.status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token })).status).toBe(401);
  });

  it('deletes the account, its sessions, videos, scenes and files, and nothing of others', async () => {
    const owner = await server.createUser({
      email: 'rita@example.com',
      password: 'Rita12345',
      team: 'Studio',
      isTeamAdmin: true,
    });
    const colleague = await server.createUser({
      email: 'sam@example.com',
      password: 'Sam123456',
      team: 'Studio',
    });
    const mine = await addVideo(owner);
    const theirs = await addVideo(colleague);
    const token = await server.login('rita@example.com', 'Rita12345');
    const second = await server.login('rita@example.com', 'Rita12345');
    expect(fs.existsSync(filesDir('input', mine))).toBe(true);

    const res = await server.call('DELETE', `/api/users/${owner}`, {
      token,
      body: { current_password: 'Rita12345' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted_videos: 1 });

    expect(fs.existsSync(filesDir('input', mine))).toBe(false);
    expect(fs.existsSync(filesDir('output', mine))).toBe(false);
    expect(fs.existsSync(filesDir('input', theirs))).toBe(true);
    const db = server.ctx.db;
    expect(await db.query('SELECT 1 FROM videos WHERE id = $1', [mine])).toHaveLength(0);
    expect(await db.query('SELECT 1 FROM scenes WHERE video_id = $1', [mine])).toHaveLength(0);
    expect(await db.query('SELECT 1 FROM videos WHERE id = $1', [theirs])).toHaveLength(1);
    expect(await db.query('SELECT 1 FROM sessions WHERE user_id = $1', [owner])).toHaveLength(0);

    expect((await server.call('GET', '/api/profile', { token })).status).toBe(401);
    expect((await server.call('GET', '/api/refresh', { token: second })).status).toBe(401);
    const login = await server.call('POST', '/api/login', {
      body: { email: 'rita@example.com', password: 'Rita12345' },
    });
    expect(login.status).toBe(401);

    // The team keeps an admin: the remaining member.
    const [sam] = await db.query<{ is_team_admin: boolean }>(
      'SELECT is_team_admin FROM users WHERE id = $1',
      [colleague],
    );
    expect(sam!.is_team_admin).toBe(true);
  });

  it('stops the analysis of its videos and takes them out of the search index', async () => {
    const owner = await server.createUser({
      email: 'uma@example.com',
      password: 'Uma123456',
      team: 'Index',
    });
    const colleague = await server.createUser({
      email: 'vic@example.com',
      password: 'Vic123456',
      team: 'Index',
    });
    const teamId = await teamOf(server.ctx, owner);
    const scenes = [{ description: 'Harbour at dawn' }];
    const indexed = await seedCompletedVideo(server.ctx, { teamId, ownerId: owner, scenes });
    const theirs = await seedCompletedVideo(server.ctx, { teamId, ownerId: colleague, scenes });
    const failed = await seedCompletedVideo(server.ctx, {
      teamId,
      ownerId: owner,
      status: 'failed',
      index: false,
    });
    const token = await server.login('uma@example.com', 'Uma123456');
    const retry = await server.call('POST', `/api/videos/${failed.id}/retry-process`, { token });
    expect(retry.status).toBe(200);
    const db = server.ctx.db;
    const count = async (sql: string, id: string) =>
      (await db.query<{ n: number }>(sql, [id]))[0]!.n;
    const liveJobs = (id: string) =>
      count(
        `SELECT count(*)::int AS n FROM jobs WHERE video_id = $1 AND state IN ('queued', 'running')`,
        id,
      );
    const documents = (id: string) =>
      count('SELECT count(*)::int AS n FROM search_documents WHERE video_id = $1', id);
    const postings = (id: string) =>
      count('SELECT count(*)::int AS n FROM search_postings WHERE video_id = $1', id);
    const teamDocs = async () =>
      (
        await db.query<{ n: number }>(
          'SELECT sum(n_docs)::int AS n FROM search_corpus_stats WHERE team_id = $1',
          [teamId],
        )
      )[0]!.n;
    expect(await liveJobs(failed.id)).toBe(1);
    expect(await documents(indexed.id)).toBe(2);
    expect(await teamDocs()).toBe(4);

    expect(
      (
        await server.call('DELETE', `/api/users/${owner}`, {
          token,
          body: { current_password: 'Uma123456' },
        })
      ).status,
    ).toBe(200);

    expect(await liveJobs(failed.id)).toBe(0);
    expect(await documents(indexed.id)).toBe(0);
    expect(await postings(indexed.id)).toBe(0);
    expect(await documents(theirs.id)).toBe(2);
    // The team's keyword statistics count the colleague's video and its scene only.
    expect(await teamDocs()).toBe(2);
    // An analysis that was under way must not bring files back after the deletion.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fs.existsSync(filesDir('input', failed.id))).toBe(false);
    expect(fs.existsSync(filesDir('output', failed.id))).toBe(false);
    expect(fs.existsSync(filesDir('output', indexed.id))).toBe(false);
  });

  it('also removes the files of a video created while the account is being deleted', async () => {
    const owner = await server.createUser({ email: 'wes@example.com', password: 'Wes123456' });
    const early = await addVideo(owner);
    let late: Promise<string> | undefined;
    // An upload of the same user finishes while the first video's files are being removed,
    // after the deletion listed the videos and before it deletes the rows.
    const real = server.ctx.storage;
    const storage: Storage = {
      kind: real.kind,
      put: real.put.bind(real),
      read: real.read.bind(real),
      stat: real.stat.bind(real),
      delete: real.delete.bind(real),
      localPath: real.localPath.bind(real),
      async deletePrefix(prefix) {
        late ??= addVideo(owner);
        await late;
        return real.deletePrefix(prefix);
      },
    };

    const result = await deleteAccount({ ...server.ctx, storage }, owner);

    const lateId = await late!;
    expect(result).toEqual({ deletedVideos: 2 });
    for (const id of [early, lateId]) {
      expect(fs.existsSync(filesDir('input', id))).toBe(false);
      expect(fs.existsSync(filesDir('output', id))).toBe(false);
    }
    const db = server.ctx.db;
    expect(await db.query('SELECT 1 FROM videos WHERE id = $1', [lateId])).toHaveLength(0);
    expect(await db.query('SELECT 1 FROM users WHERE id = $1', [owner])).toHaveLength(0);
  });

  it('promotes the longest-standing member only when no admin is left', async () => {
    const a = await server.createUser({
      email: 'a1@example.com',
      password: 'Aaaa11111',
      team: 'T2',
      isTeamAdmin: true,
    });
    const b = await server.createUser({
      email: 'b1@example.com',
      password: 'Bbbb11111',
      team: 'T2',
      isTeamAdmin: true,
    });
    const c = await server.createUser({
      email: 'c1@example.com',
      password: 'Cccc11111',
      team: 'T2',
    });
    const token = await server.login('a1@example.com', 'Aaaa11111');
    expect(
      (
        await server.call('DELETE', `/api/users/${a}`, {
          token,
          body: { current_password: 'Aaaa11111' },
        })
      ).status,
    ).toBe(200);
    const rows = await server.ctx.db.query<{ id: string; is_team_admin: boolean }>(
      'SELECT id, is_team_admin FROM users WHERE id = ANY($1::uuid[]) ORDER BY created_at',
      [[b, c]],
    );
    expect(rows.map((r) => r.is_team_admin)).toEqual([true, false]);
  });

  it('is refused while the initial password is unchanged', async () => {
    const id = await server.createUser({
      email: 'new1@example.com',
      password: 'New123456',
      mustChangePassword: true,
    });
    const token = await server.login('new1@example.com', 'New123456');
    expect((await server.call('DELETE', `/api/users/${id}`, { token })).status).toBe(403);
  });
});
