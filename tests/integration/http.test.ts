// The API's outer rules as any caller meets them: health, error format, body handling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_OWNER_HEADER } from '../../src/config/offline.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({ email: 'http@example.com', password: 'Passw0rdOk' });
  token = await server.login('http@example.com', 'Passw0rdOk');
}, 240_000);
afterAll(() => server.close());

async function raw(method: string, path: string, body: string | undefined, headers = {}) {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as { detail?: unknown } };
}

describe('HTTP rules', () => {
  it('answers health once it can serve', async () => {
    expect(await server.call('GET', '/api/health')).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
  });

  it('names the user an authenticated answer was made for (the offline cache keys on it)', async () => {
    const mine = await fetch(`${server.url}/api/profile`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const profile = (await mine.json()) as { id: string | number };
    expect(mine.headers.get(ANSWER_OWNER_HEADER)).toBe(String(profile.id));
    const anonymous = await fetch(`${server.url}/api/health`);
    expect(anonymous.headers.get(ANSWER_OWNER_HEADER)).toBeNull();
  });

  it('answers unknown API routes 404 in the error format', async () => {
    const res = await server.call('GET', '/api/no-such-thing', { token });
    expect(res.status).toBe(404);
    expect(typeof res.body.detail).toBe('string');
  });

  it('refuses malformed JSON with 400 and a detail, never 500', async () => {
    const res = await raw('PUT', '/api/users/update-profile', '{"full_name": ', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
  });

  it('refuses prototype poisoning in JSON bodies', async () => {
    const res = await raw('PUT', '/api/users/update-profile', '{"__proto__": {"x": 1}}', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
  });

  it('takes a JSON content type with an empty body as "no payload" (client DELETE calls)', async () => {
    const res = await raw('POST', '/api/logout', '', { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
  });

  it('refuses bodies over the limit with 413 in the error format', async () => {
    const big = JSON.stringify({ full_name: 'x'.repeat(2 * 1024 * 1024) });
    const fresh = await server.login('http@example.com', 'Passw0rdOk');
    const res = await fetch(`${server.url}/api/users/update-profile`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${fresh}`, 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(typeof ((await res.json()) as { detail?: unknown }).detail).toBe('string');
  });
});
