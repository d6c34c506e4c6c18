// An upload over the size limit on STORAGE=s3 (a real local S3, s3rver): S3 does not limit what
// presigned part URLs receive, so the joined object is checked after the multipart upload
// completes; it is deleted and the video fails with a reason. The limit is lowered for this file
// so that the test moves megabytes, not gigabytes.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as ClientLimits from '../../../src/config/limits.ts';
import { MULTIPART_PART_SIZE } from '../../../server/src/limits.ts';
import { startServerOnS3 } from '../../support/s3.ts';
import type { TestServer } from '../../support/server.ts';
import { createVideo } from '../../support/videos.ts';

const LIMIT = 20 * 1024 * 1024;
vi.mock('../../../src/config/limits.ts', async (original) => ({
  ...(await original<typeof ClientLimits>()),
  VIDEO_MAX_BYTES: 20 * 1024 * 1024, // LIMIT: the factory runs before the file's own constants
}));

let server: TestServer;
let token: string;
let close: (() => Promise<void>) | undefined;
const PART = MULTIPART_PART_SIZE;

beforeAll(async () => {
  ({ server, token, close } = await startServerOnS3());
});
afterAll(() => close?.());

async function multipartUpload(total: number): Promise<{ id: string; complete: Response }> {
  const { id } = await createVideo(server, token, { filename: 'big.mp4', video_length: 3 });
  const started = await server.call('POST', `/api/videos/${id}/multipart`, { token });
  const uploadId = started.body.upload_id as string;
  const data = crypto.randomBytes(total);
  const chunks = [data.subarray(0, PART), data.subarray(PART)];
  const signed = await server.call('POST', `/api/videos/${id}/multipart/sign-parts`, {
    token,
    body: { upload_id: uploadId, part_numbers: [1, 2] },
  });
  const etags: string[] = [];
  for (const [i, chunk] of chunks.entries()) {
    const res = await fetch(signed.body.parts[i].url as string, { method: 'PUT', body: chunk });
    expect(res.status).toBe(200);
    etags.push(res.headers.get('etag') ?? '');
  }
  const complete = await fetch(`${server.url}/api/videos/${id}/multipart/complete`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      upload_id: uploadId,
      parts: etags.map((etag, i) => ({ part_number: i + 1, etag })),
    }),
  });
  return { id, complete };
}

async function videoRow(id: string) {
  const [row] = await server.ctx.db.query<{ status: string; failure_reason: string | null }>(
    'SELECT status, failure_reason FROM videos WHERE id = $1',
    [id],
  );
  return row;
}

describe('S3 multipart upload over the size limit', () => {
  it('deletes the joined object and fails the video with a reason', async () => {
    const { id, complete } = await multipartUpload(LIMIT + 1);
    expect(complete.status).toBe(413);
    expect(await complete.json()).toEqual({ detail: 'File size must not exceed 5GB' });
    expect(await server.ctx.storage.stat(`input/${id}/source.mp4`)).toBeUndefined();
    expect(await videoRow(id)).toEqual({
      status: 'failed',
      failure_reason: 'the uploaded file is larger than 5 GB',
    });
    const status = await server.call('PUT', `/api/videos/${id}/update-status`, {
      token,
      body: { status: 'in_progress' },
    });
    expect(status.body.data.status).toBe('failed');
  });

  it('keeps an object at the limit', async () => {
    const { id, complete } = await multipartUpload(LIMIT);
    expect(complete.status).toBe(200);
    expect(await server.ctx.storage.stat(`input/${id}/source.mp4`)).toMatchObject({ size: LIMIT });
    expect((await videoRow(id))?.status).toBe('uploading');
  });
});
