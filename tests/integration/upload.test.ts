// Creating a video, its signed upload form on the local driver (every policy rule enforced),
// idempotent creates, and the status call that queues the analysis.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPostPolicy } from '../../server/src/storage/post-policy.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signInTwoTeams } from '../support/videos.ts';

let server: TestServer;
let token: string;
let otherToken: string;

const payload = {
  filename: 'holiday.MP4',
  video_length: 12.5,
  video_date: '2024-05-06T07:08:09.123',
  output_language: 'en',
  about_this_video: 'A day at the sea',
};

beforeAll(async () => {
  // No worker: the queued analysis job stays visible for the status test.
  server = await startTestServer({ WORKER: 'off' });
  ({ token, otherToken } = await signInTwoTeams(server));
});
afterAll(() => server.close());

async function createVideo(headers: Record<string, string> = {}) {
  const res = await server.call('POST', '/api/videos', { token, body: payload, headers });
  expect([200, 201]).toContain(res.status);
  return res.body.data as { id: string; post_url: { url: string; fields: Record<string, string> } };
}

function postForm(url: string, fields: Record<string, string>, file: Buffer): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file], { type: 'video/mp4' }), 'video.mp4');
  return fetch(url, { method: 'POST', body: form });
}

const sourceFile = (id: string) => path.join(server.dataDir, 'files', 'input', id, 'source.mp4');

describe('POST /api/videos', () => {
  it('answers the id and a signed form shaped like S3 presigned POST', async () => {
    const res = await server.call('POST', '/api/videos', { token, body: payload });
    expect(res.status).toBe(201);
    const { id, post_url } = res.body.data;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(post_url.url).toBe(`${server.url}/api/uploads/form`);
    expect(Object.keys(post_url.fields)).toEqual([
      'key',
      'Content-Type',
      'success_action_status',
      'x-amz-algorithm',
      'x-amz-credential',
      'x-amz-date',
      'policy',
      'x-amz-signature',
    ]);
    expect(post_url.fields.key).toBe(`input/${id}/source.mp4`);
    expect(post_url.fields['Content-Type']).toBe('video/mp4');
    const policy = JSON.parse(Buffer.from(post_url.fields.policy, 'base64').toString());
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 5120 * 1024 * 1024]);
    expect(policy.conditions).toContainEqual({ key: post_url.fields.key });
    expect(Date.parse(policy.expiration)).toBeGreaterThan(Date.now());
  });

  it('validates every field with a list detail', async () => {
    const bad = {
      filename: 'clip.avi',
      video_length: 0,
      video_date: '2024-05-06 07:08:09',
      output_language: 'xx',
      about_this_video: 'a'.repeat(501),
      trailer_instruction: 'b'.repeat(501),
    };
    const res = await server.call('POST', '/api/videos', { token, body: bad });
    expect(res.status).toBe(422);
    const fields = (res.body.detail as { loc: string[] }[]).map((d) => d.loc.at(-1));
    for (const f of [
      'video_length',
      'video_date',
      'output_language',
      'about_this_video',
      'trailer_instruction',
    ]) {
      expect(fields).toContain(f);
    }
    const ext = await server.call('POST', '/api/videos', {
      token,
      body: { ...payload, filename: 'clip.avi' },
    });
    expect(ext.status).toBe(422);
    expect(ext.body.detail[0].loc).toEqual(['body', 'filename']);
    const date = await server.call('POST', '/api/videos', {
      token,
      body: { ...payload, video_date: '2023-02-30T10:00:00.000' },
    });
    expect(date.status).toBe(422);
    const missing = await server.call('POST', '/api/videos', { token, body: {} });
    expect(missing.status).toBe(422);
    expect(await server.call('POST', '/api/videos', { body: payload })).toMatchObject({
      status: 401,
    });
  });

  it('answers the same video for the same Idempotency-Key, another for a new key', async () => {
    const first = await createVideo({ 'idempotency-key': 'job-1' });
    const again = await server.call('POST', '/api/videos', {
      token,
      body: payload,
      headers: { 'idempotency-key': 'job-1' },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.id);
    expect(again.body.data.post_url.fields.policy).toBeTruthy();
    const other = await createVideo({ 'idempotency-key': 'job-2' });
    expect(other.id).not.toBe(first.id);
    // Concurrent duplicates (a retry racing the first request) still make one video.
    const racing = await Promise.all(
      [1, 2, 3, 4].map(() =>
        server.call('POST', '/api/videos', {
          token,
          body: payload,
          headers: { 'idempotency-key': 'job-3' },
        }),
      ),
    );
    expect(new Set(racing.map((r) => r.body.data.id)).size).toBe(1);
    const rows = await server.ctx.db.query(
      `SELECT count(*)::int AS n FROM videos WHERE idempotency_key IN ('job-1', 'job-2', 'job-3')`,
    );
    expect(rows[0]!.n).toBe(3);
  });
});

describe('the local signed form', () => {
  const file = Buffer.alloc(4096, 7);

  it('stores the file and answers 201 with S3 XML', async () => {
    const { id, post_url } = await createVideo();
    const res = await postForm(post_url.url, post_url.fields, file);
    expect(res.status).toBe(201);
    const xml = await res.text();
    expect(xml).toContain(`<Key>input/${id}/source.mp4</Key>`);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(fs.readFileSync(sourceFile(id)).equals(file)).toBe(true);
  });

  it('answers 204 without success_action_status, matching field names in any case', async () => {
    const { id } = await createVideo();
    const fields = signPostPolicy(
      server.ctx.secrets.uploadKey,
      {
        key: `input/${id}/source.mp4`,
        expiresAt: new Date(Date.now() + 60_000),
        minBytes: 1,
        maxBytes: 10_000,
        fields: { 'Content-Type': 'video/mp4' },
      },
      new Date(),
    );
    const kebab = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.toLowerCase(), v]));
    const res = await postForm(`${server.url}/api/uploads/form`, kebab, file);
    expect(res.status).toBe(204);
    expect(fs.existsSync(sourceFile(id))).toBe(true);
  });

  it('refuses tampered fields, a wrong key, a wrong content type and extra fields', async () => {
    const { id, post_url } = await createVideo();
    const other = await createVideo();
    const cases: [Record<string, string>, string][] = [
      [{ ...post_url.fields, key: `input/${other.id}/source.mp4` }, 'AccessDenied'],
      [{ ...post_url.fields, 'Content-Type': 'text/html' }, 'AccessDenied'],
      [{ ...post_url.fields, 'x-amz-signature': 'ab'.repeat(32) }, 'SignatureDoesNotMatch'],
      [{ ...post_url.fields, extra: 'x' }, 'AccessDenied'],
    ];
    // A policy that allows more, re-encoded without a matching signature.
    const policy = JSON.parse(Buffer.from(post_url.fields.policy!, 'base64').toString());
    policy.conditions[2] = ['content-length-range', 1, 1e15];
    const forged = Buffer.from(JSON.stringify(policy)).toString('base64');
    cases.push([{ ...post_url.fields, policy: forged }, 'SignatureDoesNotMatch']);
    for (const [fields, code] of cases) {
      const res = await postForm(post_url.url, fields, file);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain(`<Code>${code}</Code>`);
    }
    expect(fs.existsSync(sourceFile(id))).toBe(false);
    expect(fs.existsSync(sourceFile(other.id))).toBe(false);
  });

  it('refuses an expired form and a file outside the size range, keeping nothing', async () => {
    const { id } = await createVideo();
    const sign = (expiresAt: Date, maxBytes: number) =>
      signPostPolicy(
        server.ctx.secrets.uploadKey,
        {
          key: `input/${id}/source.mp4`,
          expiresAt,
          minBytes: 1,
          maxBytes,
          fields: { 'Content-Type': 'video/mp4' },
        },
        new Date(),
      );
    const url = `${server.url}/api/uploads/form`;
    const expired = await postForm(url, sign(new Date(Date.now() - 1000), 10_000), file);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Policy expired');
    const tooBig = await postForm(url, sign(new Date(Date.now() + 60_000), 1000), file);
    expect(tooBig.status).toBe(400);
    expect(await tooBig.text()).toContain('<Code>EntityTooLarge</Code>');
    const empty = await postForm(url, sign(new Date(Date.now() + 60_000), 1000), Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('<Code>EntityTooSmall</Code>');
    expect(fs.existsSync(sourceFile(id))).toBe(false);
    expect(fs.readdirSync(path.join(server.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });
});

describe('PUT /api/videos/:id/update-status', () => {
  it('refuses before the file is there, then moves to in_progress once', async () => {
    const { id, post_url } = await createVideo();
    const put = (status: string, t = token) =>
      server.call('PUT', `/api/videos/${id}/update-status`, { token: t, body: { status } });
    expect((await put('completed')).status).toBe(422);
    const early = await put('in_progress');
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatch(/not been fully uploaded/);
    expect((await postForm(post_url.url, post_url.fields, Buffer.alloc(100, 1))).status).toBe(201);
    expect((await put('in_progress', otherToken)).status).toBe(404);
    const done = await put('in_progress');
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ id, status: 'in_progress' });
    const again = await put('in_progress');
    expect(again.status).toBe(200);
    const [row] = await server.ctx.db.query(
      'SELECT status, source_size::int AS size FROM videos WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ status: 'in_progress', size: 100 });
    const jobs = await server.ctx.db.query(
      `SELECT count(*)::int AS n FROM jobs WHERE video_id = $1 AND name = 'analyse-video'`,
      [id],
    );
    expect(jobs[0]!.n).toBe(1);
    // The form no longer works once the video moved on.
    const late = await postForm(post_url.url, post_url.fields, Buffer.alloc(10));
    expect(late.status).toBe(403);
  });

  it('hides other teams’ videos and unknown ids behind 404', async () => {
    const { id } = await createVideo();
    for (const [vid, t] of [
      [id, otherToken],
      ['not-a-uuid', token],
      ['00000000-0000-4000-8000-000000000000', token],
    ] as const) {
      const res = await server.call('PUT', `/api/videos/${vid}/update-status`, {
        token: t,
        body: { status: 'in_progress' },
      });
      expect(res.status).toBe(404);
    }
  });
});

describe('GET /api/supported-videos-languages', () => {
  it('lists English first, then Japanese', async () => {
    const res = await server.call('GET', '/api/supported-videos-languages', { token });
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({ code: 'en', name: 'English' });
    expect(res.body[1]).toEqual({ code: 'ja', name: '日本語 (Japanese)' });
  });
});
