// Sessions under concurrency (issue 14 section 1), against the real server on PGlite: refreshes
// racing with one token all end signed in, a rotated token reused after the grace window ends
// its whole family, and a sign-in lasts 30 days however often it is refreshed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REUSE_GRACE_MS } from '../../server/src/auth/refresh.ts';
import { countLiveSessions, SESSION_ABSOLUTE_MS } from '../../server/src/repositories/sessions.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let userId: string;
const realNow = Date.now;
const EMAIL = 'racer@example.com';
const PASSWORD = 'Secret123';

beforeAll(async () => {
  server = await startTestServer();
  userId = await server.createUser({ email: EMAIL, password: PASSWORD });
}, 180_000);
afterAll(() => server.close());

const refresh = (token: string) => server.call('GET', '/api/refresh', { token });
const profileStatus = async (token: string) =>
  (await server.call('GET', '/api/profile', { token })).status;

/** Runs `fn` with the server's clock moved forward by `ms`. */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const before = server.ctx.now;
  const base = before();
  server.ctx.now = () => base + ms + (realNow() - base);
  try {
    return await fn();
  } finally {
    server.ctx.now = before;
  }
}

describe('GET /api/refresh under concurrency', () => {
  it('answers 10 refreshes fired at once with one token with one working successor', async () => {
    const token = await server.login(EMAIL, PASSWORD);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(token)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const successors = new Set(answers.map((a) => a.body.access_token as string));
    expect(successors.size).toBe(1);
    const [successor] = [...successors] as [string];
    expect(successor).not.toBe(token);
    expect(await profileStatus(successor)).toBe(200);
    expect((await refresh(successor)).status).toBe(200);
  });

  it('answers a raced token with the live token even after later rotations', async () => {
    const first = await server.login(EMAIL, PASSWORD);
    const second = (await refresh(first)).body.access_token as string;
    const third = (await refresh(second)).body.access_token as string;
    const late = await refresh(first);
    expect(late.status).toBe(200);
    expect(late.body.access_token).toBe(third);
    expect(await profileStatus(third)).toBe(200);
    // The raced token itself no longer opens anything but refresh.
    expect(await profileStatus(first)).toBe(401);
  });

  it('revokes the whole family when a rotated token comes back after the window', async () => {
    const stolen = await server.login(EMAIL, PASSWORD);
    const other = await server.login(EMAIL, PASSWORD); // another device: a family of its own
    const current = (await refresh(stolen)).body.access_token as string;
    expect(await profileStatus(current)).toBe(200);
    const reuse = await later(REUSE_GRACE_MS + 1000, () => refresh(stolen));
    expect(reuse.status).toBe(401);
    expect(await profileStatus(current)).toBe(401);
    expect((await refresh(current)).status).toBe(401);
    expect(await profileStatus(other)).toBe(200);
  });

  it('answers a rotation whose answer was lost with its unused successor, even after the window', async () => {
    const token = await server.login(EMAIL, PASSWORD);
    // The server rotates, but the answer never reaches the client (a dropped connection)...
    const lost = (await refresh(token)).body.access_token as string;
    // ...which asks again only after the window, having been offline for a minute.
    const again = await later(REUSE_GRACE_MS + 30_000, () => refresh(token));
    expect(again.status).toBe(200);
    expect(again.body.access_token).toBe(lost);
    expect(await profileStatus(lost)).toBe(200);
    // Once the successor is in use, the old token coming back is a stolen one again.
    const reuse = await later(REUSE_GRACE_MS + 60_000, () => refresh(token));
    expect(reuse.status).toBe(401);
    expect(await profileStatus(lost)).toBe(401);
  });

  it('ends the family on logout, so a token racing the rotation cannot bring it back', async () => {
    const token = await server.login(EMAIL, PASSWORD);
    const current = (await refresh(token)).body.access_token as string;
    expect((await server.call('POST', '/api/logout', { token: current })).status).toBe(200);
    expect((await refresh(token)).status).toBe(401);
    expect(await profileStatus(current)).toBe(401);
  });
});

describe('absolute session lifetime', () => {
  it('ends 30 days after sign-in however often the session is refreshed', async () => {
    const live = await countLiveSessions(server.ctx.db, userId, realNow());
    let token = await server.login(EMAIL, PASSWORD);
    const day = 24 * 3600e3;
    // Refreshed every 5 days (well within the 7-day idle time) up to day 29.
    for (let at = 5 * day; at < SESSION_ABSOLUTE_MS; at += 5 * day) {
      const answer = await later(at, () => refresh(token));
      expect(answer.status).toBe(200);
      token = answer.body.access_token as string;
    }
    // Refreshed 10 minutes before day 30, the token works, but not past day 30, not even for
    // the hour an access token normally lasts.
    await later(SESSION_ABSOLUTE_MS - 10 * 60e3, async () => {
      token = (await refresh(token)).body.access_token as string;
      expect(await profileStatus(token)).toBe(200);
    });
    await later(SESSION_ABSOLUTE_MS + 1000, async () => {
      expect(await profileStatus(token)).toBe(401);
      expect((await refresh(token)).status).toBe(401);
    });
    expect(await countLiveSessions(server.ctx.db, userId, realNow())).toBeGreaterThan(live);
  });
});
