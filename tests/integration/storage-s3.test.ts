// STORAGE=s3 against a real local S3 (s3rver): the storage driver, S3's own presigned POST and
// the multipart protocol with presigned part URLs. (s3rver does not enforce POST policies; the
// policy rules are tested on the local driver in upload.test.ts.)
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MULTIPART_PART_SIZE } from '../../server/src/limits.ts';
import { pngImage } from '../support/images.ts';
import { startServerOnS3, type TestS3 } from '../support/s3.ts';
import type { TestServer } from '../support/server.ts';
import { createVideo } from '../support/videos.ts';

let s3: TestS3;
let server: TestServer;
let token: string;
let close: (() => Promise<void>) | undefined;
const PART = MULTIPART_PART_SIZE;

beforeAll(async () => {
  ({ s3, server, token, close } = await startServerOnS3());
});
afterAll(() => close?.());

const newVideo = () => createVideo(server, token, { filename: 'trip.mp4', video_length: 3 });

describe('S3 storage driver', () => {
  it('puts, stats, reads ranges, deletes by prefix and gives a local copy', async () => {
    const storage = server.ctx.storage;
    expect(storage.kind).toBe('s3');
    await storage.put('output/v1/a.txt', Buffer.from('hello world'));
    await storage.put('output/v1/b/c.txt', Readable.from([Buffer.from('streamed')]));
    expect(await storage.stat('output/v1/a.txt')).toMatchObject({ size: 11 });
    expect(await text(await storage.read('output/v1/a.txt', { start: 6, end: 10 }))).toBe('world');
    const local = await storage.localPath('output/v1/b/c.txt');
    expect(fs.readFileSync(local.path, 'utf8')).toBe('streamed');
    await local.release();
    expect(fs.existsSync(local.path)).toBe(false);
    await storage.deletePrefix('output/v1');
    expect(await storage.stat('output/v1/a.txt')).toBeUndefined();
    expect(await storage.stat('output/v1/b/c.txt')).toBeUndefined();
  });
});

describe('uploads under STORAGE=s3', () => {
  it('answers S3 presigned POST fields that S3 accepts', async () => {
    const { id, post_url } = await newVideo();
    expect(post_url.url).toBe(`${s3.endpoint}/${s3.bucket}`);
    expect(post_url.fields).toMatchObject({
      key: `input/${id}/source.mp4`,
      'Content-Type': 'video/mp4',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    });
    expect(post_url.fields['X-Amz-Credential']).toMatch(/^S3RVER\//);
    const policy = JSON.parse(Buffer.from(post_url.fields.Policy!, 'base64').toString());
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 5120 * 1024 * 1024]);
    const early = await server.call('PUT', `/api/videos/${id}/update-status`, {
      token,
      body: { status: 'in_progress' },
    });
    expect(early.status).toBe(409);
    const form = new FormData();
    for (const [k, v] of Object.entries(post_url.fields)) form.append(k, v);
    form.append('file', new Blob([Buffer.alloc(2048, 3)], { type: 'video/mp4' }), 'trip.mp4');
    const res = await fetch(post_url.url, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect(await server.ctx.storage.stat(`input/${id}/source.mp4`)).toMatchObject({ size: 2048 });
    const done = await server.call('PUT', `/api/videos/${id}/update-status`, {
      token,
      body: { status: 'in_progress' },
    });
    expect(done.status).toBe(200);
  });

  it('runs the multipart protocol with presigned part URLs', async () => {
    const { id } = await newVideo();
    const created = await server.call('POST', `/api/videos/${id}/multipart`, { token });
    expect(created.status).toBe(201);
    const uploadId = created.body.upload_id as string;
    const data = crypto.randomBytes(PART + 100);
    const chunks = [data.subarray(0, PART), data.subarray(PART)];
    const signed = await server.call('POST', `/api/videos/${id}/multipart/sign-parts`, {
      token,
      body: { upload_id: uploadId, part_numbers: [1, 2] },
    });
    const urls = (signed.body.parts as { url: string }[]).map((p) => p.url);
    expect(urls[0]).toContain(`${s3.endpoint}/${s3.bucket}/input/${id}/source.mp4?`);
    expect(urls[0]).not.toContain('x-amz-checksum');
    const etags: string[] = [];
    for (const [i, chunk] of chunks.entries()) {
      const res = await fetch(urls[i]!, { method: 'PUT', body: chunk });
      expect(res.status).toBe(200);
      etags.push(res.headers.get('etag') ?? '');
    }
    const listed = await server.call(
      'GET',
      `/api/videos/${id}/multipart/list-parts?upload_id=${uploadId}`,
      { token },
    );
    expect(listed.body.parts).toEqual([
      { part_number: 1, etag: etags[0], size: PART },
      { part_number: 2, etag: etags[1], size: 100 },
    ]);
    const done = await server.call('POST', `/api/videos/${id}/multipart/complete`, {
      token,
      body: { upload_id: uploadId, parts: etags.map((etag, i) => ({ part_number: i + 1, etag })) },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ key: `input/${id}/source.mp4`, size: data.length });
    const stored = Buffer.from(
      await (
        await server.ctx.storage.read(`input/${id}/source.mp4`)
      )
        .toArray()
        .then((c) => Buffer.concat(c as Buffer[])),
    );
    expect(stored.equals(data)).toBe(true);
  });

  it('aborts a multipart upload in S3', async () => {
    const { id } = await newVideo();
    const created = await server.call('POST', `/api/videos/${id}/multipart`, { token });
    const uploadId = created.body.upload_id as string;
    const signed = await server.call('POST', `/api/videos/${id}/multipart/sign-parts`, {
      token,
      body: { upload_id: uploadId, part_numbers: [1] },
    });
    expect((await fetch(signed.body.parts[0].url, { method: 'PUT', body: 'abc' })).status).toBe(
      200,
    );
    const aborted = await server.call(
      'DELETE',
      `/api/videos/${id}/multipart?upload_id=${uploadId}`,
      { token },
    );
    expect(aborted.status).toBe(204);
    const [row] = await server.ctx.db.query(
      'SELECT backend_upload_id FROM multipart_uploads WHERE id = $1',
      [uploadId],
    );
    const s3Dir = `${s3.dir}/${s3.bucket}/._S3rver_uploads/${row!.backend_upload_id as string}`;
    expect(fs.existsSync(s3Dir)).toBe(false);
  });

  it('stores people images in the bucket', async () => {
    const { id } = await newVideo();
    const form = new FormData();
    form.append('names', 'Ann');
    const png = pngImage(8, 8);
    form.append('images', new Blob([png]), 'ann.png');
    const res = await fetch(`${server.url}/api/videos/${id}/upload-people-images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await server.ctx.storage.stat(`input/${id}/people/1.png`)).toMatchObject({
      size: png.length,
    });
  });
});
