// "No 500 on any malformed input" (issue 2), for every route the server registered: bodies of the
// wrong shape and type, broken JSON and multipart, odd path parameters and query strings. Each
// answer is a 4xx with a {"detail": ...} body (or a route's own format, such as S3's XML).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, fillParams } from '../support/routes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo } from '../support/videos.ts';

let server: TestServer;
let token: string;
let videoId: string;

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  await server.createUser({ email: 'fuzz@example.com', password: 'Fuzzing123' });
  token = await server.login('fuzz@example.com', 'Fuzzing123');
  videoId = (await createVideo(server, token)).id;
}, 180_000);
afterAll(() => server.close());

const WRONG_TYPES = {
  email: 1,
  password: [],
  current_password: {},
  new_password: 5,
  confirmation_password: [],
  resetToken: 7,
  full_name: [],
  username: {},
  new_email: [],
  otp: {},
  language: 9,
  filename: 1,
  video_length: 'long',
  video_date: 'yesterday',
  output_language: {},
  about_this_video: [],
  trailer_instruction: 5,
  report_instruction: {},
  status: 42,
  upload_id: [],
  part_numbers: 'all',
  parts: { a: 1 },
};
const JSON_BODIES: unknown[] = [null, [], 'text', 123, true, WRONG_TYPES];
const RAW_BODIES: [string, string][] = [
  ['application/json', '{"full_name": '],
  ['application/json', '\u0000'],
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'a=b&c'],
  ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv'],
  ['multipart/form-data; boundary=x', '--x\r\nbroken'],
  ['multipart/form-data', '--x\r\n'],
];
const ODD_QUERY =
  '?page=-1&size=abc&tags[]=x&tags[y]=z&kValue=1e999&sceneIndex=-5&searchScope=x' +
  '&searchMethod=%00&video=maybe&upload_id=' +
  'x'.repeat(200) +
  '&description=' +
  'd'.repeat(3000);

interface Answer {
  name: string;
  status: number;
  body: string;
}

async function send(method: string, path: string, init: RequestInit): Promise<Answer> {
  const res = await fetch(server.url + path, {
    method,
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });
  const body = await res.text();
  return { name: `${method} ${path.slice(0, 120)}`, status: res.status, body };
}

describe('malformed input', () => {
  it(
    'never answers 500, and answers errors in the error format',
    { timeout: 600_000 },
    async () => {
      const answers: Answer[] = [];
      const routes = apiRoutes(server.app).flatMap((r) => r.methods.map((m) => ({ ...r, m })));
      // Deletes last (they remove the video the other calls use); logout would end the session.
      routes.sort((a, b) => Number(a.m === 'DELETE') - Number(b.m === 'DELETE'));
      for (const route of routes.filter((r) => r.path !== '/api/logout')) {
        for (const id of [videoId, 'not-an-id', '%', '9'.repeat(300)]) {
          const path = fillParams(route.path, id);
          for (const query of ['', ODD_QUERY]) {
            const url = path + query;
            if (route.m === 'GET' || route.m === 'DELETE') {
              answers.push(await send(route.m, url, {}));
              continue;
            }
            for (const body of JSON_BODIES) {
              const headers = { 'content-type': 'application/json' };
              answers.push(await send(route.m, url, { headers, body: JSON.stringify(body) }));
            }
            for (const [type, body] of RAW_BODIES) {
              answers.push(await send(route.m, url, { headers: { 'content-type': type }, body }));
            }
          }
        }
      }
      expect(answers.length).toBeGreaterThan(500);
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      const notJson = answers.filter(
        (a) => a.status >= 400 && !a.body.startsWith('{"detail":') && !a.body.startsWith('<?xml'),
      );
      expect(notJson).toEqual([]);
    },
  );

  it('answers paths that are not valid URL encoding with 400 in the error format', async () => {
    for (const path of ['/api/videos/%E0%A4%A', '/api/videos/%zz/make-report', '/%']) {
      const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(400);
      expect(typeof ((await res.json()) as { detail: unknown }).detail, path).toBe('string');
    }
  });

  it('never answers 500 to odd Authorization headers', async () => {
    for (const header of [
      'Bearer',
      'Bearer ',
      `Bearer ${'x'.repeat(8000)}`,
      'Basic abc',
      'Bearer a b',
    ]) {
      const res = await fetch(`${server.url}/api/profile`, { headers: { authorization: header } });
      expect(res.status, header.slice(0, 20)).toBe(401);
    }
  });
});
