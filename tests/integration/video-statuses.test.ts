// POST /api/videos/statuses (issue 42): where many videos stand in one call, as the batch panel
// follows its uploads through their analysis. Only the caller's team's videos answer; a failure
// code only on a failed video; bad input is a 422 in the API's error format.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signInTwoTeams, uploadVideo } from '../support/videos.ts';

let server: TestServer;
let token: string;
let otherToken: string;

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  ({ token, otherToken } = await signInTwoTeams(server));
});
afterAll(() => server.close());

const statuses = (ids: unknown, t = token) =>
  server.call('POST', '/api/videos/statuses', { token: t, body: { ids } });

describe('POST /api/videos/statuses', () => {
  it("answers each of the team's videos, and nothing of another team's", async () => {
    const mine = await uploadVideo(server, token, crypto.randomBytes(20_000), {
      filename: 'harbour.mp4',
    });
    const failed = await uploadVideo(server, token, crypto.randomBytes(20_000), {
      filename: 'broken.mp4',
    });
    await server.ctx.db.query(
      `UPDATE videos SET status = 'failed', failure_code = 'undecodable' WHERE id = $1`,
      [failed],
    );
    const theirs = await uploadVideo(server, otherToken, crypto.randomBytes(20_000), {
      filename: 'theirs.mp4',
    });
    const unknown = crypto.randomUUID();

    const res = await statuses([mine, failed, theirs, unknown, mine.toUpperCase()]);
    expect(res.status).toBe(200);
    const byId = new Map(
      (res.body.items as { id: string }[]).map((item) => [item.id, item] as const),
    );
    expect(byId.size).toBe(2);
    expect(byId.get(mine)).toEqual({
      id: mine,
      status: 'in_progress',
      title: null,
      failure_code: null,
    });
    expect(byId.get(failed)).toMatchObject({ status: 'failed', failure_code: 'undecodable' });
  });

  it('refuses what is not a list of video ids, in the error format', async () => {
    for (const ids of ['abc', ['not-a-uuid'], Array(10_001).fill(crypto.randomUUID())]) {
      const res = await statuses(ids);
      expect(res.status).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
    expect((await server.call('POST', '/api/videos/statuses', { body: { ids: [] } })).status).toBe(
      401,
    );
  });
});
