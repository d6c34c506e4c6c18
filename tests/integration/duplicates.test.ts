// Nothing twice (issue 42): "which of these does the team already have?" by size, then SHA-256,
// and the create call that refuses the team's bytes unless asked to keep them. On PGlite here and
// on PostgreSQL in `npm run test:postgres`.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../support/s3.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo, NEW_VIDEO, signInTwoTeams, uploadVideo } from '../support/videos.ts';

let server: TestServer;
let token: string;
let otherToken: string;

const sha = (b: Buffer): string => crypto.createHash('sha256').update(b).digest('hex');
const bytes = (n: number, seed: string): Buffer =>
  Buffer.concat([Buffer.from(seed), crypto.randomBytes(n - seed.length)]);

beforeAll(async () => {
  // No worker: what is checked here is the record, not the analysis.
  server = await startTestServer({ WORKER: 'off' });
  ({ token, otherToken } = await signInTwoTeams(server));
});
afterAll(() => server.close());

/** The video once its analysis has ended (completed or failed). */
async function settledVideo(on: TestServer, t: string, id: string) {
  for (let i = 0; i < 300; i++) {
    const res = await on.call('GET', `/api/videos/${id}`, { token: t });
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`video ${id} did not settle`);
}

const check = (files: unknown[], t = token) =>
  server.call('POST', '/api/videos/check-files', { token: t, body: { files } });

describe('POST /api/videos/check-files', () => {
  const file = bytes(40_000, 'check-files');
  let id = '';

  beforeAll(async () => {
    id = await uploadVideo(server, token, file, {
      filename: 'harbour.mp4',
      file_size: file.length,
      content_sha256: sha(file),
    });
  });

  it('answers new, needs-hash and in-archive in the order asked', async () => {
    const other = bytes(file.length, 'same size, other bytes');
    const res = await check([
      { key: 'a/unknown-size.mp4', size: 12_345 },
      { key: 'b/same-size.mp4', size: file.length },
      { key: 'c/same-bytes.mp4', size: file.length, sha256: sha(file).toUpperCase() },
      { key: 'd/same-size-other-bytes.mp4', size: file.length, sha256: sha(other) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { key: 'a/unknown-size.mp4', state: 'new' },
      { key: 'b/same-size.mp4', state: 'needs-hash' },
      {
        key: 'c/same-bytes.mp4',
        state: 'in-archive',
        video: { id, title: null, filename: 'harbour.mp4' },
      },
      { key: 'd/same-size-other-bytes.mp4', state: 'new' },
    ]);
  });

  it("never tells another team's videos", async () => {
    const res = await check(
      [
        { key: 'x', size: file.length },
        { key: 'y', size: file.length, sha256: sha(file) },
      ],
      otherToken,
    );
    expect(res.body.items.map((i: { state: string }) => i.state)).toEqual(['new', 'new']);
  });

  it('does not count a video whose file has not arrived', async () => {
    const pending = bytes(41_000, 'never sent');
    await createVideo(server, token, {
      filename: 'pending.mp4',
      file_size: pending.length,
      content_sha256: sha(pending),
    });
    const res = await check([
      { key: 'p', size: pending.length },
      { key: 'q', size: pending.length, sha256: sha(pending) },
    ]);
    expect(res.body.items.map((i: { state: string }) => i.state)).toEqual(['new', 'new']);
  });

  it('refuses more than 10,000 files in words, and bad digests by field', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ key: `f${i}.mp4`, size: i + 1 }));
    const res = await check(many);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'files']);
    expect(res.body.detail[0].msg).toMatch(/At most 10,000 files/);
    const ok = await check(many.slice(0, 10_000));
    expect(ok.status).toBe(200);
    expect(ok.body.items).toHaveLength(10_000);
    const bad = await check([{ key: 'z', size: 1, sha256: 'abc' }]);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'files', 0, 'sha256']);
    expect((await check([])).status).toBe(422);
  });
});

describe('POST /api/videos with a content hash', () => {
  const file = bytes(50_000, 'create-409');
  let id = '';

  beforeAll(async () => {
    id = await uploadVideo(server, token, file, {
      filename: 'lighthouse.mov',
      content_sha256: sha(file),
    });
  });

  it('refuses bytes the team already has with 409, naming the video', async () => {
    const res = await server.call('POST', '/api/videos', {
      token,
      body: {
        ...NEW_VIDEO,
        filename: 'copy.mp4',
        file_size: file.length,
        content_sha256: sha(file),
      },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail: 'Already in the archive as lighthouse.mov.',
      video: { id, title: null, filename: 'lighthouse.mov' },
    });
  });

  it('keeps the copy when asked, and shows size and digest on the video', async () => {
    const copy = await createVideo(server, token, {
      filename: 'copy.mp4',
      file_size: file.length,
      content_sha256: sha(file),
      allow_duplicate: true,
    });
    const got = await server.call('GET', `/api/videos/${copy.id}`, { token });
    expect(got.body.file_size).toBe(file.length);
    expect(got.body.content_sha256).toBe(sha(file));
    expect(got.body.duplicate_of).toBeNull();
  });

  it('answers a repeated create (same Idempotency-Key) with its own video, not a 409', async () => {
    const other = bytes(30_000, 'idempotent');
    const headers = { 'idempotency-key': 'job-42' };
    const body = { ...NEW_VIDEO, filename: 'once.mp4', content_sha256: sha(other) };
    const first = await server.call('POST', '/api/videos', { token, body, headers });
    expect(first.status).toBe(201);
    const form = new FormData();
    for (const [k, v] of Object.entries(first.body.data.post_url.fields as Record<string, string>))
      form.append(k, v);
    form.append('file', new Blob([new Uint8Array(other)]), 'once.mp4');
    expect((await fetch(first.body.data.post_url.url, { method: 'POST', body: form })).status).toBe(
      201,
    );
    await server.call('PUT', `/api/videos/${first.body.data.id}/update-status`, {
      token,
      body: { status: 'in_progress' },
    });
    const again = await server.call('POST', '/api/videos', { token, body, headers });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  it("does not refuse another team's bytes", async () => {
    const res = await server.call('POST', '/api/videos', {
      token: otherToken,
      body: { ...NEW_VIDEO, filename: 'theirs.mp4', content_sha256: sha(file) },
    });
    expect(res.status).toBe(201);
  });

  it('checks the fields', async () => {
    for (const [field, value] of [
      ['content_sha256', 'not-hex'],
      ['file_size', -1],
      ['file_size', 1.5],
      ['allow_duplicate', 'yes'],
    ] as const) {
      const res = await server.call('POST', '/api/videos', {
        token,
        body: { ...NEW_VIDEO, [field]: value },
      });
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', field]);
    }
  });
});

describe('the server’s own hash and the duplicate check, with the analysis worker', () => {
  let worker: TestServer;
  let wToken: string;

  beforeAll(async () => {
    worker = await startTestServer(); // WORKER inline: the analysis runs.
    await worker.createUser({ email: 'w@example.com', password: 'password1', team: 'W' });
    wToken = await worker.login('w@example.com', 'password1');
  });
  afterAll(() => worker.close());

  const settled = (id: string) => settledVideo(worker, wToken, id);

  // Not a video: each copy's analysis ends at once (not-a-video) unless it is a duplicate first.
  const file = bytes(60_000, 'same bytes twice');
  let first = '';

  it('keeps its own SHA-256 of the received bytes, whatever the client claimed', async () => {
    first = await uploadVideo(worker, wToken, file, {
      filename: 'first.mp4',
      file_size: 1,
      content_sha256: 'f'.repeat(64),
    });
    const video = await settled(first);
    expect(video).toMatchObject({
      status: 'failed',
      failure_code: 'not-a-video',
      file_size: file.length,
      content_sha256: sha(file),
      duplicate_of: null,
    });
  });

  it('does not analyse the same bytes again: the copy fails as a duplicate, naming the first', async () => {
    // The client claims other bytes, so the create call lets it through; the server knows better.
    const copy = await uploadVideo(worker, wToken, file, {
      filename: 'copy.mp4',
      content_sha256: '0'.repeat(64),
    });
    const video = await settled(copy);
    expect(video).toMatchObject({
      status: 'failed',
      failure_code: 'duplicate',
      content_sha256: sha(file),
      duplicate_of: { id: first, title: null, filename: 'first.mp4' },
    });
    // The archive's copy is the first one.
    const checked = await worker.call('POST', '/api/videos/check-files', {
      token: wToken,
      body: { files: [{ key: 'k', size: file.length, sha256: sha(file) }] },
    });
    expect(checked.body.items[0].video.id).toBe(first);

    // A plain retry checks again and fails again, without analysing.
    const retry = await worker.call('POST', `/api/videos/${copy}/retry-process`, { token: wToken });
    expect(retry.status).toBe(200);
    expect(await settled(copy)).toMatchObject({ failure_code: 'duplicate' });

    // Asked to keep it, the retry analyses it (and this file is not a video).
    const keep = await worker.call('POST', `/api/videos/${copy}/retry-process`, {
      token: wToken,
      body: { allow_duplicate: true },
    });
    expect(keep.status).toBe(200);
    expect(await settled(copy)).toMatchObject({ failure_code: 'not-a-video', duplicate_of: null });
  });

  it('hashes a file that arrived in parts (in any order) when its analysis starts', async () => {
    const PART = 16 * 1024 * 1024;
    const data = Buffer.concat([Buffer.from('multipart'), crypto.randomBytes(PART + 4000)]);
    const { id } = await createVideo(worker, wToken, { filename: 'parts.mov' });
    const started = await worker.call('POST', `/api/videos/${id}/multipart`, { token: wToken });
    const uploadId = started.body.upload_id as string;
    const signed = await worker.call('POST', `/api/videos/${id}/multipart/sign-parts`, {
      token: wToken,
      body: { upload_id: uploadId, part_numbers: [1, 2] },
    });
    const urls = (signed.body.parts as { url: string }[]).map((p) => p.url);
    const chunks = [data.subarray(0, PART), data.subarray(PART)];
    const etags: string[] = [];
    for (const i of [1, 0]) {
      const res = await fetch(urls[i]!, { method: 'PUT', body: chunks[i] });
      etags[i] = res.headers.get('etag')!;
    }
    const done = await worker.call('POST', `/api/videos/${id}/multipart/complete`, {
      token: wToken,
      body: { upload_id: uploadId, parts: etags.map((etag, i) => ({ part_number: i + 1, etag })) },
    });
    expect(done.status).toBe(200);
    await worker.call('PUT', `/api/videos/${id}/update-status`, {
      token: wToken,
      body: { status: 'in_progress' },
    });
    expect(await settled(id)).toMatchObject({
      failure_code: 'not-a-video',
      content_sha256: sha(data),
      file_size: data.length,
    });
  });

  it('analyses a copy uploaded with allow_duplicate, and one whose original was deleted', async () => {
    const kept = await uploadVideo(worker, wToken, file, {
      filename: 'kept.mp4',
      content_sha256: sha(file),
      allow_duplicate: true,
    });
    expect(await settled(kept)).toMatchObject({ failure_code: 'not-a-video' });

    const other = bytes(61_000, 'original deleted');
    const original = await uploadVideo(worker, wToken, other, { filename: 'orig.mp4' });
    await settled(original);
    const copy = await uploadVideo(worker, wToken, other, { filename: 'copy2.mp4' });
    expect(await settled(copy)).toMatchObject({ failure_code: 'duplicate' });
    expect((await worker.call('DELETE', `/api/videos/${original}`, { token: wToken })).status).toBe(
      200,
    );
    const after = await worker.call('GET', `/api/videos/${copy}`, { token: wToken });
    expect(after.body.duplicate_of).toBeNull();
    await worker.call('POST', `/api/videos/${copy}/retry-process`, { token: wToken });
    expect(await settled(copy)).toMatchObject({ failure_code: 'not-a-video' });
  });
});

describe('on S3: the hash is taken while the analysis copies the file down', () => {
  let s3: TestS3;
  let onS3: TestServer;
  let s3Token: string;

  beforeAll(async () => {
    s3 = await startTestS3();
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    onS3 = await startTestServer(s3.env); // WORKER inline
    await onS3.createUser({ email: 's3@example.com', password: 'password1', team: 'S' });
    s3Token = await onS3.login('s3@example.com', 'password1');
  });
  afterAll(async () => {
    await onS3?.close();
    await s3?.close();
  });

  const settledOnS3 = (id: string) => settledVideo(onS3, s3Token, id);

  it("replaces the client's claim with its own digest, and fails a copy as a duplicate", async () => {
    const file = bytes(70_000, 'on s3');
    const first = await uploadVideo(onS3, s3Token, file, {
      filename: 'first.mp4',
      content_sha256: 'a'.repeat(64),
    });
    expect(await settledOnS3(first)).toMatchObject({
      failure_code: 'not-a-video',
      content_sha256: sha(file),
      file_size: file.length,
    });
    const copy = await uploadVideo(onS3, s3Token, file, { filename: 'copy.mp4' });
    expect(await settledOnS3(copy)).toMatchObject({
      failure_code: 'duplicate',
      duplicate_of: { id: first, filename: 'first.mp4' },
    });
  });
});
