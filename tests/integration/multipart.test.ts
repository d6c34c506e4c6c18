// The resumable multipart protocol on the local driver: create, sign in batches, PUT parts,
// list, complete, abort, signed-URL checks, and expiry clean-up moved by ctx.now.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupExpiredUploads } from '../../server/src/routes/uploads/cleanup.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo, signInTwoTeams } from '../support/videos.ts';

let server: TestServer;
let token: string;
let otherToken: string;
const PART = 16 * 1024 * 1024;

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  ({ token, otherToken } = await signInTwoTeams(server));
});
afterAll(() => server.close());

async function newVideo(): Promise<string> {
  const created = await createVideo(server, token, {
    filename: 'big.mov',
    video_length: 60,
    output_language: 'ja',
  });
  return created.id;
}

async function start(id: string): Promise<string> {
  const res = await server.call('POST', `/api/videos/${id}/multipart`, { token });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ part_size: PART, key: `input/${id}/source.mov` });
  return res.body.upload_id as string;
}

async function sign(id: string, uploadId: string, parts: number[]): Promise<string[]> {
  const res = await server.call('POST', `/api/videos/${id}/multipart/sign-parts`, {
    token,
    body: { upload_id: uploadId, part_numbers: parts },
  });
  expect(res.status).toBe(200);
  return (res.body.parts as { part_number: number; url: string }[]).map((p) => p.url);
}

describe('local multipart upload', () => {
  it('uploads parts, lists them, completes into the source file', async () => {
    const id = await newVideo();
    const uploadId = await start(id);
    const data = crypto.randomBytes(2 * PART + 1234);
    const chunks = [data.subarray(0, PART), data.subarray(PART, 2 * PART), data.subarray(2 * PART)];
    const urls = await sign(id, uploadId, [1, 2, 3]);
    // Part 2 first and part 1 twice (a re-send): order and repeats do not matter. Each copy
    // received gets its own ETag (a receipt, not a digest); the last copy is the one kept.
    const etags: string[] = [];
    const staleEtags: string[] = [];
    for (const i of [1, 0, 2, 0]) {
      const res = await fetch(urls[i]!, { method: 'PUT', body: chunks[i] });
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      if (etags[i]) staleEtags.push(etags[i]!);
      etags[i] = etag;
    }
    expect(staleEtags).toHaveLength(1);
    expect(staleEtags[0]).not.toBe(etags[0]);
    const listed = await server.call(
      'GET',
      `/api/videos/${id}/multipart/list-parts?upload_id=${uploadId}`,
      { token },
    );
    expect(listed.body.parts).toEqual(
      chunks.map((c, i) => ({ part_number: i + 1, etag: etags[i], size: c.length })),
    );
    const alias = await server.call(
      'GET',
      `/api/videos/${id}/multipart/parts?upload_id=${uploadId}`,
      {
        token,
      },
    );
    expect(alias.body).toEqual(listed.body);
    const parts = chunks.map((_, i) => ({ part_number: i + 1, etag: etags[i]! }));
    // A list naming the copy of part 1 that was replaced is refused.
    const stale = await server.call('POST', `/api/videos/${id}/multipart/complete`, {
      token,
      body: {
        upload_id: uploadId,
        parts: [{ part_number: 1, etag: staleEtags[0] }, ...parts.slice(1)],
      },
    });
    // 409: the list is stale; the queue lists the parts again and completes with the server's.
    expect(stale.status).toBe(409);
    const wrong = await server.call('POST', `/api/videos/${id}/multipart/complete`, {
      token,
      body: { upload_id: uploadId, parts: [parts[0], { part_number: 2, etag: '"00"' }, parts[2]] },
    });
    expect(wrong.status).toBe(409);
    const gap = await server.call('POST', `/api/videos/${id}/multipart/complete`, {
      token,
      body: { upload_id: uploadId, parts: [parts[0], parts[2]] },
    });
    expect(gap.status).toBe(400);
    const done = await server.call('POST', `/api/videos/${id}/multipart/complete`, {
      token,
      body: { upload_id: uploadId, parts },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ key: `input/${id}/source.mov`, size: data.length });
    const stored = fs.readFileSync(path.join(server.dataDir, 'files', 'input', id, 'source.mov'));
    expect(stored.equals(data)).toBe(true);
    // A repeated complete (lost answer) gives the same result; the work folder is gone.
    const again = await server.call('POST', `/api/videos/${id}/multipart/complete`, {
      token,
      body: { upload_id: uploadId, parts },
    });
    expect(again.body).toEqual(done.body);
    expect(fs.existsSync(path.join(server.dataDir, 'tmp', 'multipart', uploadId))).toBe(false);
    const status = await server.call('PUT', `/api/videos/${id}/update-status`, {
      token,
      body: { status: 'in_progress' },
    });
    expect(status.status).toBe(200);
  });

  it('checks part signatures, expiry and size', async () => {
    const id = await newVideo();
    const uploadId = await start(id);
    const [url] = await sign(id, uploadId, [1]);
    const tampered = url!.replace('/parts/' + uploadId + '/1?', '/parts/' + uploadId + '/2?');
    expect((await fetch(tampered, { method: 'PUT', body: 'x' })).status).toBe(403);
    const expired = new URL(url!);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
    expect((await fetch(expired, { method: 'PUT', body: 'x' })).status).toBe(403);
    const tooBig = await fetch(url!, { method: 'PUT', body: Buffer.alloc(PART + 1) });
    expect(tooBig.status).toBe(400);
    expect(await tooBig.text()).toContain('EntityTooLarge');
    const listed = await server.call(
      'GET',
      `/api/videos/${id}/multipart/list-parts?upload_id=${uploadId}`,
      { token },
    );
    expect(listed.body.parts).toEqual([]);
  });

  it('aborts, keeps other teams out, and refuses unknown uploads', async () => {
    const id = await newVideo();
    const uploadId = await start(id);
    const [url] = await sign(id, uploadId, [1]);
    expect((await fetch(url!, { method: 'PUT', body: 'abc' })).status).toBe(200);
    const foreign = await server.call('POST', `/api/videos/${id}/multipart`, { token: otherToken });
    expect(foreign.status).toBe(404);
    const unknown = await server.call(
      'GET',
      `/api/videos/${id}/multipart/list-parts?upload_id=${crypto.randomUUID()}`,
      { token },
    );
    expect(unknown.status).toBe(404);
    const aborted = await server.call(
      'DELETE',
      `/api/videos/${id}/multipart?upload_id=${uploadId}`,
      { token },
    );
    expect(aborted.status).toBe(204);
    expect(fs.existsSync(path.join(server.dataDir, 'tmp', 'multipart', uploadId))).toBe(false);
    expect((await fetch(url!, { method: 'PUT', body: 'abc' })).status).toBe(404);
    const after = await server.call(
      'GET',
      `/api/videos/${id}/multipart/list-parts?upload_id=${uploadId}`,
      { token },
    );
    expect(after.status).toBe(410);
  });

  it('expires incomplete uploads after 24 hours and cleans their parts', async () => {
    const id = await newVideo();
    const uploadId = await start(id);
    const [url] = await sign(id, uploadId, [1]);
    expect((await fetch(url!, { method: 'PUT', body: 'abc' })).status).toBe(200);
    const dir = path.join(server.dataDir, 'tmp', 'multipart', uploadId);
    expect(await cleanupExpiredUploads(server.ctx)).toBe(0);
    expect(fs.existsSync(dir)).toBe(true);
    const realNow = server.ctx.now;
    server.ctx.now = () => realNow() + 24 * 60 * 60 * 1000 + 1000;
    try {
      // The unfinished upload of the signature test expires too.
      expect(await cleanupExpiredUploads(server.ctx)).toBeGreaterThanOrEqual(1);
      const [row] = await server.ctx.db.query(
        'SELECT status FROM multipart_uploads WHERE id = $1',
        [uploadId],
      );
      expect(row).toEqual({ status: 'aborted' });
      expect(fs.existsSync(dir)).toBe(false);
    } finally {
      server.ctx.now = realNow;
    }
    // Back in the present (the session would have expired too), the upload is gone for good.
    const list = await server.call(
      'GET',
      `/api/videos/${id}/multipart/list-parts?upload_id=${uploadId}`,
      { token },
    );
    expect(list.status).toBe(410);
  });
});
