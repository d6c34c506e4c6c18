// Strict JSON types (issue 15 "Types"): a field of the wrong type is a 422 naming that field on
// every call with a JSON body, never coerced (a number sent as an instruction became its text).
// Query strings keep their coercion: a page or kValue arrives as text and is read as a number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectRefusal,
  expectWorldIntact,
  runCase,
  seedHostileWorld,
  send,
  type HostileCase,
  type HostileWorld,
} from '../../support/hostile.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { NEW_VIDEO } from '../../support/videos.ts';

let server: TestServer;
let world: HostileWorld;

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  world = await seedHostileWorld(server);
}, 180_000);
afterAll(() => server.close());

/** [method, path, a valid body, the field to spoil, a value of the wrong type]. */
type Row = [string, (w: HostileWorld) => string, Record<string, unknown>, string, unknown];
const login = { email: 'owner@example.com', password: 'Hostile123' };
const reset = { resetToken: 'x'.repeat(40), password: 'Newpass123' };
const change = { current_password: 'Hostile123', new_password: 'Newpass123' };
const profile = { full_name: 'Owner One', username: 'owner' };
const emailRequest = { current_password: 'Hostile123', new_email: 'new@example.com' };
const emailVerify = { otp: '123456', new_email: 'new@example.com' };
const ROWS: Row[] = [
  ['POST', () => '/api/login', login, 'email', 1],
  ['POST', () => '/api/login', login, 'password', 12345678],
  ['POST', () => '/api/forgot-password', { email: 'a@example.com' }, 'email', ['a@example.com']],
  ['POST', () => '/api/reset-password', reset, 'resetToken', 7],
  ['POST', () => '/api/reset-password', reset, 'password', 12345678],
  ['POST', () => '/api/reset-password', reset, 'confirmationPassword', 12345678],
  ['POST', () => '/api/change-password', change, 'current_password', 12345678],
  ['POST', () => '/api/change-password', change, 'new_password', true],
  ['POST', () => '/api/change-password', change, 'confirmation_password', 1],
  ['PUT', () => '/api/users/update-profile', profile, 'full_name', ['Owner']],
  ['PUT', () => '/api/users/update-profile', profile, 'username', 5],
  ['PUT', () => '/api/users/update-profile', profile, 'language', 1],
  ['POST', () => '/api/users/change-email-request', emailRequest, 'current_password', 1],
  ['POST', () => '/api/users/change-email-request', emailRequest, 'new_email', {}],
  ['POST', () => '/api/users/change-email-verify-otp', emailVerify, 'otp', 123456],
  ['POST', () => '/api/users/change-email-verify-otp', emailVerify, 'new_email', 1],
  ['POST', () => '/api/videos', NEW_VIDEO, 'filename', 1],
  ['POST', () => '/api/videos', NEW_VIDEO, 'video_length', '12.5'],
  ['POST', () => '/api/videos', NEW_VIDEO, 'video_date', 20240506],
  ['POST', () => '/api/videos', NEW_VIDEO, 'output_language', ['en']],
  ['POST', () => '/api/videos', NEW_VIDEO, 'about_this_video', 5],
  ['POST', () => '/api/videos', NEW_VIDEO, 'trailer_instruction', false],
  ['PUT', (w) => `/api/videos/${w.videoId}/update-status`, { status: 'x' }, 'status', 1],
  [
    'POST',
    (w) => `/api/videos/${w.videoId}/make-trailer`,
    { trailer_instruction: 'Short' },
    'trailer_instruction',
    123,
  ],
  [
    'POST',
    (w) => `/api/videos/${w.videoId}/make-report`,
    { report_instruction: 'Short' },
    'report_instruction',
    123,
  ],
  [
    'POST',
    (w) => `/api/videos/${w.videoId}/multipart/sign-parts`,
    { upload_id: 'u', part_numbers: [1] },
    'upload_id',
    1,
  ],
  [
    'POST',
    (w) => `/api/videos/${w.videoId}/multipart/sign-parts`,
    { upload_id: 'u', part_numbers: [1] },
    'part_numbers',
    ['1'],
  ],
  [
    'POST',
    (w) => `/api/videos/${w.videoId}/multipart/complete`,
    { upload_id: 'u', parts: [{ part_number: 1, etag: 'e' }] },
    'parts',
    [{ part_number: '1', etag: 'e' }],
  ],
];

describe('a JSON field of the wrong type is a 422 naming the field', () => {
  it.each(
    ROWS.map(([method, path, body, field, value]) => ({
      name: `${method} ${path({ videoId: ':id' } as HostileWorld)} ${field}: ${JSON.stringify(value)}`,
      method,
      path,
      body,
      field,
      value,
    })),
  )('$name', async ({ method, path, body, field, value }) => {
    const c: HostileCase = {
      name: field,
      method,
      path: path(world),
      json: { ...body, [field]: value },
      token: world.token,
    };
    const answer = await send(server, c);
    expectRefusal(answer, 422);
    const detail = (answer.json as { detail: { loc: unknown[]; type: string }[] }).detail;
    const entry = detail.find((d) => d.loc[0] === 'body' && d.loc.includes(field));
    expect(entry?.type, answer.text).toBe('type');
  });

  it('refuses a body that is not an object on every call with a JSON body', async () => {
    for (const [method, path] of new Set(ROWS.map(([m, p]) => [m, p(world)] as const))) {
      await runCase(server, { name: path, method, path, json: [], token: world.token });
    }
  });

  it('still reads numbers from a query string (page, size, kValue)', async () => {
    const list = await server.call('GET', '/api/videos?page=1&size=2', { token: world.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, size: 2 });
    const similar = await server.call(
      'GET',
      `/api/videos/find-similar-scenes?videoId=${world.videoId}&sceneIndex=0&kValue=3`,
      { token: world.token },
    );
    expect(similar.status).toBe(200);
  });

  it('leaves both teams and their videos as they were', () => expectWorldIntact(server, world));
});
