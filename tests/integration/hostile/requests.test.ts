// The hostile-input catalogue (issue 15), one named case per line, across every call of
// product-spec section 7: missing fields, huge strings and bodies, invalid JSON, unicode edge
// cases, NUL bytes and path separators in names, absurd paging and kValue, unknown enums, forged,
// expired and revoked tokens, other teams' ids, tampered signed links and forms, path traversal.
// Each gets a clear 4xx in the error format (or the clamped value the spec asks for), never a 5xx
// or a hang, and the data seeded first is intact afterwards. Media and image cases:
// media*.test.ts and images*.test.ts beside this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_PAGE_SIZE_MAX } from '../../../server/src/limits.ts';
import {
  expectRefusal,
  expectWorldIntact,
  runCase,
  seedHostileWorld,
  type Answer,
  type HostileCase,
  type HostileWorld,
} from '../../support/hostile.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { NEW_VIDEO } from '../../support/videos.ts';

let server: TestServer;
let world: HostileWorld;
/** Tokens by kind, and the values the paths below name with a leading colon. */
const tokens: Record<string, string | undefined> = {};
const values: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  world = await seedHostileWorld(server);
  tokens.user = world.token;
  tokens.forged = 'x'.repeat(43);
  const revoked = await server.login('owner@example.com', 'Hostile123');
  await server.call('POST', '/api/logout', { token: revoked });
  tokens.revoked = revoked;
  const realNow = server.ctx.now;
  server.ctx.now = () => realNow() - 40 * 24 * 60 * 60 * 1000;
  tokens.expired = await server.login('owner@example.com', 'Hostile123');
  server.ctx.now = realNow;
  const video = await server.call('GET', `/api/videos/${world.videoId}`, { token: world.token });
  const thumb = new URL(
    `/assets/data/output/${video.body.video_thumbnail_path as string}`,
    server.url,
  );
  values.own = world.videoId;
  values.other = world.otherVideoId;
  values.thumb = thumb.pathname;
  values.sig = thumb.searchParams.get('sig') ?? '';
  values.exp = thumb.searchParams.get('exp') ?? '';
  values.otherUser = (await server.call('GET', '/api/profile', { token: world.otherToken })).body
    .id as string;
}, 180_000);
afterAll(() => server.close());

type Auth = 'user' | 'none' | 'forged' | 'revoked' | 'expired';
type Row = Omit<HostileCase, 'token'> & { auth?: Auth };

const LONG = (n: number) => 'a'.repeat(n);
const video = (change: Record<string, unknown>): Row['json'] => ({ ...NEW_VIDEO, ...change });
const json = (text: string) => ({ type: 'application/json', body: text });
const anyRefusal = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422];

/** A list answer whose size was clamped to the specification's maximum. */
const clampedSize = (a: Answer) => {
  expect(a.status).toBe(200);
  expect((a.json as { size: number }).size).toBe(VIDEO_PAGE_SIZE_MAX);
};
/** Search answers: 200 with results of the caller's team only, or a refusal. */
const ownTeamOnly = (a: Answer) => {
  if (a.status !== 200) return expectRefusal(a, anyRefusal);
  const items = (a.json as { items: { id: string }[] }).items;
  expect(items.map((i) => i.id)).not.toContain(values.other);
};
/** S3's protocol answers in S3's XML error format. */
const s3Refusal = (status: number[]) => (a: Answer) => {
  expect(status, a.text).toContain(a.status);
  expect(a.text.startsWith('<?xml')).toBe(true);
};

const ROWS: Row[] = [
  // Sign-in and password calls.
  {
    name: 'login: invalid JSON',
    method: 'POST',
    path: '/api/login',
    raw: json('{"email":'),
    status: 400,
    auth: 'none',
  },
  {
    name: 'login: a 2 MB body',
    method: 'POST',
    path: '/api/login',
    json: { email: LONG(2_000_000) },
    status: 413,
    auth: 'none',
  },
  {
    name: 'login: missing password',
    method: 'POST',
    path: '/api/login',
    json: { email: 'owner@example.com' },
    auth: 'none',
  },
  {
    name: 'login: NUL in the e-mail',
    method: 'POST',
    path: '/api/login',
    json: { email: 'owner\u0000@example.com', password: 'Hostile123' },
    auth: 'none',
  },
  {
    name: 'login: zero-width space in the e-mail',
    method: 'POST',
    path: '/api/login',
    json: { email: 'ow\u200bner@example.com', password: 'Hostile123' },
    auth: 'none',
  },
  {
    name: 'login: a 10,000-character e-mail',
    method: 'POST',
    path: '/api/login',
    json: { email: `${LONG(10_000)}@example.com`, password: 'x' },
    auth: 'none',
  },
  {
    name: 'login: a 100,000-character password',
    method: 'POST',
    path: '/api/login',
    json: { email: 'owner@example.com', password: LONG(100_000) },
    status: 401,
    auth: 'none',
  },
  {
    name: 'login: text/plain body',
    method: 'POST',
    path: '/api/login',
    raw: { type: 'text/plain', body: 'owner@example.com' },
    status: [415, 422],
    auth: 'none',
  },
  {
    name: 'forgot: missing e-mail',
    method: 'POST',
    path: '/api/forgot-password',
    json: {},
    auth: 'none',
  },
  {
    name: 'forgot: a header injected into the e-mail',
    method: 'POST',
    path: '/api/forgot-password',
    json: { email: 'owner@example.com\r\nBcc: x@evil.example' },
    auth: 'none',
  },
  {
    name: 'reset: forged token',
    method: 'POST',
    path: '/api/reset-password',
    json: { resetToken: LONG(43), password: 'Newpass123', confirmationPassword: 'Newpass123' },
    status: 401,
    auth: 'none',
  },
  {
    name: 'reset: empty token',
    method: 'POST',
    path: '/api/reset-password',
    json: { resetToken: '', password: 'Newpass123' },
    status: 401,
    auth: 'none',
  },
  {
    name: 'reset: a 100,000-character token',
    method: 'POST',
    path: '/api/reset-password',
    json: { resetToken: LONG(100_000), password: 'Newpass123' },
    status: 401,
    auth: 'none',
  },
  {
    name: 'reset: confirmation differs',
    method: 'POST',
    path: '/api/reset-password',
    json: { resetToken: LONG(43), password: 'Newpass123', confirmationPassword: 'Newpass124' },
    auth: 'none',
  },
  {
    name: 'reset: Japanese password',
    method: 'POST',
    path: '/api/reset-password',
    json: { resetToken: LONG(43), password: 'パスワード12345' },
    auth: 'none',
  },
  {
    name: 'refresh: forged token',
    method: 'GET',
    path: '/api/refresh',
    status: 401,
    auth: 'forged',
  },
  { name: 'refresh: no token', method: 'GET', path: '/api/refresh', status: 401, auth: 'none' },
  {
    name: 'refresh: revoked token',
    method: 'GET',
    path: '/api/refresh',
    status: 401,
    auth: 'revoked',
  },
  {
    name: 'profile: revoked token',
    method: 'GET',
    path: '/api/profile',
    status: 401,
    auth: 'revoked',
  },
  {
    name: 'profile: expired token',
    method: 'GET',
    path: '/api/profile',
    status: 401,
    auth: 'expired',
  },
  {
    name: 'profile: forged token',
    method: 'GET',
    path: '/api/profile',
    status: 401,
    auth: 'forged',
  },
  {
    name: 'logout: forged token',
    method: 'POST',
    path: '/api/logout',
    status: 401,
    auth: 'forged',
  },
  {
    name: 'change password: wrong current password',
    method: 'POST',
    path: '/api/change-password',
    json: { current_password: 'Wrongpass1', new_password: 'Newpass123' },
    status: 400,
  },
  {
    name: 'change password: 21-character new password',
    method: 'POST',
    path: '/api/change-password',
    json: { current_password: 'Hostile123', new_password: LONG(21) },
  },
  {
    name: 'change password: no token',
    method: 'POST',
    path: '/api/change-password',
    json: { current_password: 'Hostile123', new_password: 'Newpass123' },
    status: 401,
    auth: 'none',
  },
  {
    name: 'profile update: 10,000-character full name',
    method: 'PUT',
    path: '/api/users/update-profile',
    json: { full_name: LONG(10_000), username: 'owner' },
  },
  {
    name: 'profile update: path separators in the username',
    method: 'PUT',
    path: '/api/users/update-profile',
    json: { full_name: 'Owner One', username: '../admin' },
  },
  {
    name: 'profile update: NUL in the username',
    method: 'PUT',
    path: '/api/users/update-profile',
    json: { full_name: 'Owner One', username: 'own\u0000er' },
  },
  {
    name: 'profile update: spaces and a slash in the username',
    method: 'PUT',
    path: '/api/users/update-profile',
    json: { full_name: 'Owner One', username: 'own er/x' },
  },
  {
    name: 'profile update: missing fields',
    method: 'PUT',
    path: '/api/users/update-profile',
    json: {},
  },
  {
    name: 'e-mail change: wrong password',
    method: 'POST',
    path: '/api/users/change-email-request',
    json: { current_password: 'Wrongpass1', new_email: 'new@example.com' },
    status: 400,
  },
  {
    name: 'e-mail change: non-ASCII address',
    method: 'POST',
    path: '/api/users/change-email-request',
    json: { current_password: 'Hostile123', new_email: 'ü@example.com' },
  },
  {
    name: 'e-mail code: letters',
    method: 'POST',
    path: '/api/users/change-email-verify-otp',
    json: { otp: '12345a', new_email: 'new@example.com' },
  },
  {
    name: 'e-mail code: full-width digits',
    method: 'POST',
    path: '/api/users/change-email-verify-otp',
    json: { otp: '１２３４５６', new_email: 'new@example.com' },
  },
  {
    name: 'e-mail code: none was requested',
    method: 'POST',
    path: '/api/users/change-email-verify-otp',
    json: { otp: '123456', new_email: 'new@example.com' },
    status: [400, 404, 409, 422],
  },
  {
    name: 'delete account: another user',
    method: 'DELETE',
    path: '/api/users/:otherUser',
    status: 403,
  },
  {
    name: 'delete account: not an id',
    method: 'DELETE',
    path: '/api/users/..%2F..%2Fetc',
    status: [403, 404],
  },

  // The video list and a video.
  { name: 'list: page 0', method: 'GET', path: '/api/videos?page=0' },
  { name: 'list: negative page', method: 'GET', path: '/api/videos?page=-1' },
  { name: 'list: page 99,999,999,999', method: 'GET', path: '/api/videos?page=99999999999' },
  {
    name: 'list: size 100,000 is clamped',
    method: 'GET',
    path: '/api/videos?size=100000',
    check: clampedSize,
  },
  { name: 'list: size not a number', method: 'GET', path: '/api/videos?size=abc' },
  { name: 'list: unknown sort', method: 'GET', path: '/api/videos?sort=random' },
  { name: 'list: forged token', method: 'GET', path: '/api/videos', status: 401, auth: 'forged' },
  { name: "video: another team's", method: 'GET', path: '/api/videos/:other', status: 404 },
  { name: 'video: not an id', method: 'GET', path: '/api/videos/not-an-id', status: 404 },
  {
    name: 'video: path traversal',
    method: 'GET',
    path: '/api/videos/..%2F..%2Fetc%2Fpasswd',
    status: 404,
  },
  { name: 'video: NUL in the id', method: 'GET', path: '/api/videos/abc%00def', status: 404 },
  {
    name: 'video: a 5,000-character id',
    method: 'GET',
    path: `/api/videos/${LONG(5000)}`,
    status: [404, 414, 422],
  },
  {
    name: "delete: another team's video",
    method: 'DELETE',
    path: '/api/videos/:other',
    status: 404,
  },
  {
    name: "retry: another team's video",
    method: 'POST',
    path: '/api/videos/:other/retry-process',
    status: 404,
  },
  {
    name: 'retry: a completed video',
    method: 'POST',
    path: '/api/videos/:own/retry-process',
    status: 409,
  },

  // Creating a video.
  {
    name: 'create: path separators in the file name',
    method: 'POST',
    path: '/api/videos',
    json: video({ filename: '../../etc/passwd.mp4' }),
  },
  {
    name: 'create: a backslash in the file name',
    method: 'POST',
    path: '/api/videos',
    json: video({ filename: 'a\\b.mp4' }),
  },
  {
    name: 'create: NUL in the file name',
    method: 'POST',
    path: '/api/videos',
    json: video({ filename: 'a\u0000.mp4' }),
  },
  {
    name: 'create: a right-to-left override in the file name',
    method: 'POST',
    path: '/api/videos',
    json: video({ filename: 'clip\u202egnp.mp4' }),
  },
  {
    name: 'create: not a video extension',
    method: 'POST',
    path: '/api/videos',
    json: video({ filename: 'setup.exe' }),
  },
  {
    name: 'create: a 10,000-character file name',
    method: 'POST',
    path: '/api/videos',
    json: video({ filename: `${LONG(10_000)}.mp4` }),
  },
  {
    name: 'create: missing file name',
    method: 'POST',
    path: '/api/videos',
    json: video({ filename: undefined }),
  },
  {
    name: 'create: zero length',
    method: 'POST',
    path: '/api/videos',
    json: video({ video_length: 0 }),
  },
  {
    name: 'create: negative length',
    method: 'POST',
    path: '/api/videos',
    json: video({ video_length: -5 }),
  },
  {
    name: 'create: a length of 1e300 seconds',
    method: 'POST',
    path: '/api/videos',
    json: video({ video_length: 1e300 }),
  },
  {
    name: 'create: February 30th',
    method: 'POST',
    path: '/api/videos',
    json: video({ video_date: '2023-02-30T00:00:00.000' }),
  },
  {
    name: 'create: year 0000',
    method: 'POST',
    path: '/api/videos',
    json: video({ video_date: '0000-01-01T00:00:00.000' }),
  },
  {
    name: 'create: unknown output language',
    method: 'POST',
    path: '/api/videos',
    json: video({ output_language: 'xx' }),
  },
  {
    name: 'create: 501-character about text',
    method: 'POST',
    path: '/api/videos',
    json: video({ about_this_video: LONG(501) }),
  },
  {
    name: 'create: 100,000-character trailer instruction',
    method: 'POST',
    path: '/api/videos',
    json: video({ trailer_instruction: LONG(100_000) }),
  },
  {
    name: 'create: a 1,000-character Idempotency-Key',
    method: 'POST',
    path: '/api/videos',
    json: video({}),
    headers: { 'idempotency-key': LONG(1000) },
  },
  {
    name: 'create: no token',
    method: 'POST',
    path: '/api/videos',
    json: video({}),
    status: 401,
    auth: 'none',
  },

  // After the upload: status, outputs, people images, multipart.
  {
    name: 'status: unknown value',
    method: 'PUT',
    path: '/api/videos/:own/update-status',
    json: { status: 'completed' },
  },
  {
    name: "status: another team's video",
    method: 'PUT',
    path: '/api/videos/:other/update-status',
    json: { status: 'in_progress' },
    status: 404,
  },
  {
    name: 'trailer: blank instruction',
    method: 'POST',
    path: '/api/videos/:own/make-trailer',
    json: { trailer_instruction: ' \t\n ' },
  },
  {
    name: 'trailer: missing instruction',
    method: 'POST',
    path: '/api/videos/:own/make-trailer',
    json: {},
  },
  {
    name: 'report: 501-character instruction',
    method: 'POST',
    path: '/api/videos/:own/make-report',
    json: { report_instruction: LONG(501) },
  },
  {
    name: "report: another team's video",
    method: 'POST',
    path: '/api/videos/:other/make-report',
    json: { report_instruction: 'Summarise' },
    status: 404,
  },
  {
    name: 'people images: JSON instead of a form',
    method: 'POST',
    path: '/api/videos/:own/upload-people-images',
    json: { names: ['A'] },
    status: anyRefusal,
  },
  {
    name: "people images: another team's video",
    method: 'POST',
    path: '/api/videos/:other/upload-people-images',
    raw: {
      type: 'multipart/form-data; boundary=x',
      body: '--x\r\nContent-Disposition: form-data; name="names"\r\n\r\nA\r\n--x--\r\n',
    },
    status: 404,
  },
  {
    name: 'multipart: part number 0',
    method: 'POST',
    path: '/api/videos/:own/multipart/sign-parts',
    json: { upload_id: 'u', part_numbers: [0] },
  },
  {
    name: 'multipart: part number 10,001',
    method: 'POST',
    path: '/api/videos/:own/multipart/sign-parts',
    json: { upload_id: 'u', part_numbers: [10_001] },
  },
  {
    name: 'multipart: forged upload id',
    method: 'POST',
    path: '/api/videos/:own/multipart/sign-parts',
    json: { upload_id: 'forged', part_numbers: [1] },
    status: [404, 409],
  },
  {
    name: 'multipart: complete a forged upload',
    method: 'POST',
    path: '/api/videos/:own/multipart/complete',
    json: { upload_id: 'forged', parts: [{ part_number: 1, etag: 'e' }] },
    status: [404, 409],
  },
  {
    name: 'multipart: list parts without an upload id',
    method: 'GET',
    path: '/api/videos/:own/multipart/list-parts',
  },
  {
    name: 'multipart: start on an analysed video',
    method: 'POST',
    path: '/api/videos/:own/multipart',
    status: [404, 409],
  },

  // Search.
  {
    name: 'search: kValue 0',
    method: 'GET',
    path: '/api/videos/find-similar-videos?videoId=:own&kValue=0',
  },
  {
    name: 'search: kValue 1,000,000',
    method: 'GET',
    path: '/api/videos/find-similar-videos?videoId=:own&kValue=1000000',
  },
  {
    name: 'search: kValue not a number',
    method: 'GET',
    path: '/api/videos/find-similar-scenes?videoId=:own&kValue=lots',
  },
  {
    name: 'search: unknown method',
    method: 'GET',
    path: '/api/videos/find-similar-videos?videoId=:own&searchMethod=magic',
  },
  {
    name: 'search: unknown scope',
    method: 'GET',
    path: '/api/videos/find-similar-scenes?videoId=:own&searchScope=everything',
  },
  {
    name: 'search: 1,025-character description',
    method: 'GET',
    path: `/api/videos/find-similar-videos?description=${LONG(1025)}`,
  },
  {
    name: 'search: negative scene index',
    method: 'GET',
    path: '/api/videos/find-similar-scenes?videoId=:own&sceneIndex=-1',
  },
  {
    name: 'search: page 0',
    method: 'GET',
    path: '/api/videos/find-similar-videos?videoId=:own&page=0',
  },
  {
    name: "search: from another team's video",
    method: 'GET',
    path: '/api/videos/find-similar-scenes?videoId=:other&sceneIndex=0&searchScope=current',
    check: ownTeamOnly,
  },
  {
    name: 'search: NUL in the description',
    method: 'GET',
    path: '/api/videos/find-similar-videos?description=boat%00s',
    check: ownTeamOnly,
  },
  {
    name: 'search: combining marks, emoji and invalid UTF-8',
    method: 'GET',
    path: `/api/videos/find-similar-scenes?description=${encodeURIComponent('e\u0301\u0301\u0301 👩‍👩‍👧')}%ED%A0%BD%FF`,
    check: ownTeamOnly,
  },
  {
    name: 'languages: forged token',
    method: 'GET',
    path: '/api/supported-videos-languages',
    status: 401,
    auth: 'forged',
  },

  // Signed links: assets, the report page, the upload form and parts.
  { name: 'asset: no signature', method: 'GET', path: ':thumb', status: 403, auth: 'none' },
  {
    name: 'asset: tampered signature',
    method: 'GET',
    path: ':thumb?exp=:exp&sig=AAAA:sig',
    status: 403,
    auth: 'none',
  },
  {
    name: 'asset: expiry moved forward',
    method: 'GET',
    path: ':thumb?exp=9999999999&sig=:sig',
    status: 403,
    auth: 'none',
  },
  {
    name: 'asset: signature used for another file',
    method: 'GET',
    path: '/assets/data/output/:own/scenes/0/thumbnail.jpg?exp=:exp&sig=:sig',
    status: 403,
    auth: 'none',
  },
  {
    name: "asset: signature used for another team's file",
    method: 'GET',
    path: '/assets/data/output/:other/thumbnail.jpg?exp=:exp&sig=:sig',
    status: [403, 404],
    auth: 'none',
  },
  {
    name: 'asset: encoded path traversal',
    method: 'GET',
    path: '/assets/data/output/:own/..%2F..%2F..%2Fetc%2Fpasswd?exp=:exp&sig=:sig',
    status: 404,
    auth: 'none',
  },
  {
    name: 'asset: dot segments',
    method: 'GET',
    path: '/assets/data/output/:own/%2e%2e/%2e%2e/secrets.json',
    status: 404,
    auth: 'none',
  },
  {
    name: 'asset: unknown root',
    method: 'GET',
    path: '/assets/data/secrets/:own/thumbnail.jpg',
    status: 404,
    auth: 'none',
  },
  {
    name: 'report page: forged signature',
    method: 'GET',
    path: '/api/videos/:own/report/report.html?exp=9999999999&sig=forged',
    status: [403, 404],
    auth: 'none',
  },
  {
    name: "report page: another team's video",
    method: 'GET',
    path: '/api/videos/:other/report/report.html',
    status: 404,
  },
  {
    name: 'upload form: tampered policy',
    method: 'POST',
    path: '/api/uploads/form',
    auth: 'none',
    raw: {
      type: 'multipart/form-data; boundary=x',
      body: '--x\r\nContent-Disposition: form-data; name="key"\r\n\r\ninput/x/source.mp4\r\n--x\r\nContent-Disposition: form-data; name="policy"\r\n\r\neyJmb3JnZWQiOnRydWV9\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\nAAAA\r\n--x--\r\n',
    },
    check: s3Refusal([400, 403]),
  },
  {
    name: 'upload part: forged signature',
    method: 'PUT',
    path: '/api/uploads/parts/forged/1?expires=9999999999&signature=forged',
    auth: 'none',
    raw: { type: 'application/octet-stream', body: 'AAAA' },
    check: s3Refusal([403]),
  },
];

/** The case with its placeholders filled from the seeded world. */
function resolve(row: Row): HostileCase {
  const path = row.path.replace(/:(own|other|thumb|sig|exp|otherUser)\b/g, (_m, k: string) =>
    k === 'thumb' || k === 'sig' ? values[k]! : encodeURIComponent(values[k]!),
  );
  const auth = row.auth ?? 'user';
  return { ...row, path, token: auth === 'none' ? undefined : tokens[auth] };
}

describe('hostile requests', () => {
  it.each(ROWS.map((row) => ({ ...row, label: `${row.method} ${row.name}` })))(
    '$label',
    async (row) => runCase(server, resolve(row)),
  );

  it('leaves both teams, their accounts and videos as they were', () =>
    expectWorldIntact(server, world));
});
