// Videos made through the API as the upload dialog makes them: the create call, the signed form
// and the status call, plus the two-team sign-in most upload tests start from.
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

/** A create call's body that passes every rule; tests override the fields they look at. */
export const NEW_VIDEO = {
  filename: 'sea.mp4',
  video_length: 12.5,
  video_date: '2024-05-06T07:08:09.123',
  output_language: 'en',
  about_this_video: 'A day at the sea',
};

export interface CreatedVideo {
  id: string;
  post_url: { url: string; fields: Record<string, string> };
}

/** POST /api/videos with NEW_VIDEO and `change`; it must answer 201. */
export async function createVideo(
  server: TestServer,
  token: string,
  change: Record<string, unknown> = {},
): Promise<CreatedVideo> {
  const res = await server.call('POST', '/api/videos', {
    token,
    body: { ...NEW_VIDEO, ...change },
  });
  expect(res.status).toBe(201);
  return res.body.data as CreatedVideo;
}

/**
 * Creates a video, sends `bytes` through its signed form and tells the server the file is up
 * (as the client does); answers the video's id.
 */
export async function uploadVideo(
  server: TestServer,
  token: string,
  bytes: Buffer,
  change: Record<string, unknown> & { filename: string },
): Promise<string> {
  const { id, post_url } = await createVideo(server, token, change);
  const form = new FormData();
  for (const [k, v] of Object.entries(post_url.fields)) form.append(k, v);
  // A copy: the DOM's Blob (this file is in the e2e project too) refuses a Buffer on a shared pool.
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'video/mp4' }), change.filename);
  expect((await fetch(post_url.url, { method: 'POST', body: form })).status).toBe(201);
  const status = await server.call('PUT', `/api/videos/${id}/update-status`, {
    token,
    body: { status: 'in_progress' },
  });
  expect(status.status).toBe(200);
  return id;
}

/** Two accounts in two teams, A and B, signed in: `token` is A's, `otherToken` B's. */
export async function signInTwoTeams(
  server: TestServer,
): Promise<{ token: string; otherToken: string }> {
  await server.createUser({ email: 'a@example.com', password: 'password1', team: 'A' });
  await server.createUser({ email: 'b@example.com', password: 'password1', team: 'B' });
  return {
    token: await server.login('a@example.com', 'password1'),
    otherToken: await server.login('b@example.com', 'password1'),
  };
}
