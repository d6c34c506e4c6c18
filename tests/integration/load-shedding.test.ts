// Load shedding (issue 14): while the one database connection is taken (here by a transaction
// that stays open, as a slow step would hold it), API requests are not left waiting: past their
// queue budget they get a 503 in the API's error format with Retry-After, and the server serves
// again as soon as the database is free. Likewise while the event loop stays late (requests
// waiting to be read at all), new API requests are shed. Health checks never are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token = '';

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({ email: 'busy@example.com', password: 'Busy12345' });
  token = await server.login('busy@example.com', 'Busy12345');
}, 180_000);
afterAll(() => server?.close());

async function get(
  path: string,
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

describe('load shedding', () => {
  it('answers 503 with Retry-After while the database is held, and serves once it is free', async () => {
    let release = (): void => undefined;
    let held = true;
    const holder = server.ctx.db.tx(async (q) => {
      await q.query('SELECT 1');
      await new Promise<void>((r) => {
        release = r;
        setTimeout(r, 20_000); // never hold the database past the test, even when it fails
      });
      held = false;
    });
    // A health probe is never shed, nor kept waiting: its check goes ahead of the held database
    // (Db.ping), so it answers while the API's requests are shed.
    const health = fetch(server.url + '/api/health').then((res) => ({
      status: res.status,
      whileHeld: held,
    }));
    const answers = await Promise.all(
      ['/api/videos', '/api/profile', '/api/videos?page=2', '/api/profile'].map(async (p) => ({
        ...(await get(p)),
        whileHeld: held,
      })),
    );
    for (const a of answers) {
      expect(a).toMatchObject({ status: 503, retryAfter: '1', whileHeld: true });
      expect(typeof (a.body as { detail: unknown }).detail).toBe('string');
    }
    await new Promise((r) => setTimeout(r, 1_500)); // past the queue's budget of 1 s
    release();
    await holder;
    expect(await health).toEqual({ status: 200, whileHeld: true });
    expect((await get('/api/profile')).status).toBe(200);
  });

  it('answers API requests 503 at once while the event loop stays late, health still 200', async () => {
    // Keep the loop late as a flood of work would: every turn spends 700 ms in JavaScript.
    const hog = setInterval(() => {
      const until = performance.now() + 700;
      while (performance.now() < until);
    }, 1);
    let late: Awaited<ReturnType<typeof get>>[];
    let health: number;
    try {
      await new Promise((r) => setTimeout(r, 2_000)); // the lag is seen over two ticks
      late = await Promise.all(['/api/profile', '/api/videos'].map((p) => get(p)));
      health = (await fetch(server.url + '/api/health')).status;
    } finally {
      clearInterval(hog);
    }
    for (const a of late) {
      expect(a).toMatchObject({ status: 503, retryAfter: '1' });
      expect((a.body as { detail: unknown }).detail).toBe(
        'The server is busy. Please try again in a moment.',
      );
    }
    expect(health).toBe(200);
    await new Promise((r) => setTimeout(r, 200)); // two on-time ticks
    expect((await get('/api/profile')).status).toBe(200);
  });
});
