// A video analysed with people images, as an upload makes it: the images through the upload
// dialog's route, then the file where the upload puts it and the analysis run to its end.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { enqueueAnalysis } from '../../server/src/pipeline/enqueue.ts';
import type { TestServer } from './server.ts';

/** POST /api/videos/:id/upload-people-images with [name, image file] pairs; must answer 200. */
export async function uploadPeopleImages(
  server: TestServer,
  id: string,
  token: string,
  people: [string, string][],
): Promise<void> {
  const form = new FormData();
  for (const [name] of people) form.append('names[]', name);
  for (const [, file] of people) {
    form.append('images[]', new Blob([fs.readFileSync(file)]), path.basename(file));
  }
  const res = await fetch(`${server.url}/api/videos/${id}/upload-people-images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(200);
}

/** Puts the file where the upload would and runs the analysis to its end. */
export async function analyseUploaded(
  server: TestServer,
  id: string,
  file: Buffer,
  timeoutMs = 240_000,
): Promise<void> {
  const key = `input/${id}/source.mp4`;
  await server.ctx.storage.put(key, file);
  await server.ctx.db.query(
    `UPDATE videos SET source_key = $2, status = 'in_progress' WHERE id = $1`,
    [id, key],
  );
  expect(await enqueueAnalysis(server.ctx, id)).toBe(true);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await server.ctx.db.query<{ status: string; failure_reason: string | null }>(
      'SELECT status, failure_reason FROM videos WHERE id = $1',
      [id],
    );
    if (row?.status === 'completed') return;
    if (row?.status === 'failed' || Date.now() > until) {
      throw new Error(`analysis ended ${row?.status}: ${row?.failure_reason}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
