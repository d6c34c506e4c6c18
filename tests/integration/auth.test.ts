// Sign-in, refresh, logout, profile and the forced change of the initial password, against the
// real server and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUST_CHANGE_PASSWORD, NOT_AUTHENTICATED } from '../../server/src/plugins/auth.ts';
import { countLiveSessions } from '../../server/src/repositories/sessions.ts';
import { apiRoutes, fillParams } from '../support/routes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
const realNow = Date.now;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({
    email: 'alice@example.com',
    password: 'Secret123',
    team: 'Acme',
    fullName: 'Alice Example',
    username: 'alice',
  });
}, 180_000); // starting a server takes long on a busy machine
afterAll(() => server.close());

describe('POST /api/login', () => {
  it('answers a bearer token and the user in snake_case', async () => {
    const res = await server.call('POST', '/api/login', {
      body: { email: 'Alice@Example.com', password: 'Secret123' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token_type: 'bearer',
      user: {
        email: 'alice@example.com',
        full_name: 'Alice Example',
        username: 'alice',
        team: { name: 'Acme' },
        must_change_password: false,
      },
    });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.body.user.id).toMatch(/^[0-9a-f-]{36}$/);
    const profile = await server.call('GET', '/api/profile', { token: res.body.access_token });
    expect(profile.status).toBe(200);
  });

  it('refuses a wrong password and an unknown e-mail alike with 401 and a detail', async () => {
    const wrong = await server.call('POST', '/api/login', {
      body: { email: 'alice@example.com', password: 'Wrong1234' },
    });
    const unknown = await server.call('POST', '/api/login', {
      body: { email: 'nobody@example.com', password: 'Wrong1234' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(typeof wrong.body.detail).toBe('string');
  });

  it('validates the e-mail and requires both fields (422 list details)', async () => {
    const bad = await server.call('POST', '/api/login', {
      body: { email: 'not-an-email', password: 'Secret123' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'email'] });
    expect(bad.body.detail[0].msg).toMatch(/^email /);
    const missing = await server.call('POST', '/api/login', { body: { email: 'a@example.com' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'password']);
    const notObject = await server.call('POST', '/api/login', { body: ['x'] });
    expect(notObject.status).toBe(422);
  });
});

describe('GET /api/profile', () => {
  it('answers the profile fields', async () => {
    const token = await server.login('alice@example.com', 'Secret123');
    const res = await server.call('GET', '/api/profile', { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'email',
        'full_name',
        'id',
        'is_team_admin',
        'language',
        'must_change_password',
        'team',
        'username',
      ].sort(),
    );
    expect(res.body).toMatchObject({ team: { name: 'Acme' }, language: 'en' });
  });

  it('needs a token', async () => {
    const res = await server.call('GET', '/api/profile');
    expect(res.status).toBe(401);
    expect(res.body.detail).toBeTypeOf('string');
  });
});

describe('GET /api/refresh', () => {
  it('rotates the token: the new one works, the old one only refreshes to the same one', async () => {
    const old = await server.login('alice@example.com', 'Secret123');
    const res = await server.call('GET', '/api/refresh', { token: old });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', user: { email: 'alice@example.com' } });
    const fresh = res.body.access_token as string;
    expect(fresh).not.toBe(old);
    expect((await server.call('GET', '/api/profile', { token: fresh })).status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token: old })).status).toBe(401);
    // A caller that raced the rotation gets the same successor (session-refresh.test.ts).
    const raced = await server.call('GET', '/api/refresh', { token: old });
    expect(raced.body.access_token).toBe(fresh);
  });

  it('renews an expired access token within the idle time, not after it', async () => {
    const token = await server.login('alice@example.com', 'Secret123');
    try {
      server.ctx.now = () => realNow() + 2 * 3600e3;
      expect((await server.call('GET', '/api/profile', { token })).status).toBe(401);
      const res = await server.call('GET', '/api/refresh', { token });
      expect(res.status).toBe(200);
      const renewed = res.body.access_token as string;
      expect((await server.call('GET', '/api/profile', { token: renewed })).status).toBe(200);
      server.ctx.now = () => realNow() + 2 * 3600e3 + 8 * 24 * 3600e3;
      expect((await server.call('GET', '/api/refresh', { token: renewed })).status).toBe(401);
    } finally {
      server.ctx.now = realNow;
    }
  });
});

describe('stored passwords', () => {
  it('are scrypt hashes (memory-hard, salted) as the API sets them, never the password', async () => {
    for (const email of ['twin1@example.com', 'twin2@example.com']) {
      await server.createUser({ email, password: 'Initial123', mustChangePassword: true });
      const changed = await server.call('POST', '/api/change-password', {
        token: await server.login(email, 'Initial123'),
        body: { current_password: 'Initial123', new_password: 'SamePass123' },
      });
      expect(changed.status).toBe(200);
    }
    const rows = await server.ctx.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email LIKE 'twin%' ORDER BY email",
    );
    for (const { password_hash: hash } of rows) {
      // N = 2^15, r = 8: 32 MiB of memory per hash.
      expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]{40,}$/);
      expect(hash).not.toContain('SamePass123');
    }
    expect(rows[0]!.password_hash).not.toBe(rows[1]!.password_hash); // salted
  });
});

describe('no cookies (the privacy policy promises none)', () => {
  it('sign-in, refresh, profile and logout set no cookie: the bearer token alone carries the session', async () => {
    const login = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password: 'Secret123' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const answers = [login];
    const bearer = { authorization: `Bearer ${token}` };
    const refreshed = await fetch(`${server.url}/api/refresh`, { headers: bearer });
    answers.push(refreshed);
    const fresh = ((await refreshed.json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${fresh}` };
    answers.push(await fetch(`${server.url}/api/profile`, { headers }));
    answers.push(await fetch(`${server.url}/api/logout`, { method: 'POST', headers }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.headers.get('set-cookie'))).toEqual([null, null, null, null]);
  });
});

describe('POST /api/logout', () => {
  it('revokes the session', async () => {
    const token = await server.login('alice@example.com', 'Secret123');
    const res = await server.call('POST', '/api/logout', { token });
    expect(res.status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token })).status).toBe(401);
    expect((await server.call('GET', '/api/refresh', { token })).status).toBe(401);
  });
});

describe('initial password', () => {
  it('blocks every other call with 403 until changed, then lets the user in', async () => {
    const id = await server.createUser({
      email: 'newbie@example.com',
      password: 'Initial123',
      team: 'Acme',
      mustChangePassword: true,
    });
    const login = await server.call('POST', '/api/login', {
      body: { email: 'newbie@example.com', password: 'Initial123' },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.must_change_password).toBe(true);
    const token = login.body.access_token as string;

    const profile = await server.call('GET', '/api/profile', { token });
    expect(profile.status).toBe(200);
    expect(profile.body.must_change_password).toBe(true);
    const blocked = await server.call('PUT', '/api/users/update-profile', {
      token,
      body: { full_name: 'New Bie', username: 'newbie' },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.detail).toBe(MUST_CHANGE_PASSWORD);
    const refreshed = await server.call('GET', '/api/refresh', { token });
    expect(refreshed.status).toBe(200);
    const current = refreshed.body.access_token as string;

    const changed = await server.call('POST', '/api/change-password', {
      token: current,
      body: {
        current_password: 'Initial123',
        new_password: 'Chosen456',
        confirmation_password: 'Chosen456',
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.must_change_password).toBe(false);
    const allowed = await server.call('PUT', '/api/users/update-profile', {
      token: current,
      body: { full_name: 'New Bie', username: 'newbie' },
    });
    expect(allowed.status).toBe(200);
    expect(await countLiveSessions(server.ctx.db, id, Date.now())).toBe(1);
  });
});

describe('the initial-password gate on every call', () => {
  // The calls a new account may make (and logout); all stay behind the token.
  const ALLOWED = [
    'GET /api/profile',
    'POST /api/change-password',
    'GET /api/refresh',
    'POST /api/logout',
  ];
  // Opened in a browser tab with a signed link; its bearer fallback refuses a new account itself.
  const OWN_CHECK = ['GET /api/videos/:id/report/report.html'];

  it('refuses every other API route with 403 and the detail, anonymous callers with 401, whatever the body', async () => {
    await server.createUser({
      email: 'gated@example.com',
      password: 'Initial123',
      mustChangePassword: true,
    });
    const token = await server.login('gated@example.com', 'Initial123');
    const gated: string[] = [];
    const open: string[] = [];
    for (const route of apiRoutes(server.app)) {
      for (const method of route.methods) {
        const name = `${method} ${route.path}`;
        const path = fillParams(route.path, '00000000-0000-0000-0000-000000000000');
        // An empty object fails every body schema: the session is checked before the body.
        const body = method === 'GET' ? undefined : {};
        const anonymous = await server.call(method, path, { body });
        if (anonymous.status !== 401 || anonymous.body?.detail !== NOT_AUTHENTICATED) {
          open.push(name); // public: login, forgot/reset password, health, signed upload forms
          continue;
        }
        // The allowed calls (refresh rotates the token, logout revokes it) have their own tests.
        if (ALLOWED.includes(name)) continue;
        const res = await server.call(method, path, { token, body });
        if (OWN_CHECK.includes(name)) {
          expect([401, 403], name).toContain(res.status);
          continue;
        }
        expect({ name, status: res.status, detail: res.body?.detail }).toEqual({
          name,
          status: 403,
          detail: MUST_CHANGE_PASSWORD,
        });
        gated.push(name);
      }
    }
    expect(gated).toEqual(
      expect.arrayContaining([
        'GET /api/videos',
        'POST /api/videos',
        'PUT /api/users/update-profile',
        'POST /api/users/change-email-request',
        'DELETE /api/users/:id',
        'GET /api/supported-videos-languages',
      ]),
    );
    expect(open).toEqual(
      expect.arrayContaining(['POST /api/login', 'POST /api/forgot-password', 'GET /api/health']),
    );
    for (const name of ALLOWED) expect(open).not.toContain(name);
    // The allowed calls answer the new account.
    expect((await server.call('GET', '/api/profile', { token })).status).toBe(200);
  });
});

describe('POST /api/change-password', () => {
  it('applies the password rules with the texts of the spec', async () => {
    const token = await server.login('alice@example.com', 'Secret123');
    const cases: [string, string][] = [
      ['short1', 'Please enter at least 8 characters'],
      ['a'.repeat(21), 'Please enter no more than 20 characters'],
      ['with space 1', 'Please enter alphanumeric characters only'],
    ];
    for (const [next, detail] of cases) {
      const res = await server.call('POST', '/api/change-password', {
        token,
        body: { current_password: 'Secret123', new_password: next },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe(detail);
    }
    const mismatch = await server.call('POST', '/api/change-password', {
      token,
      body: {
        current_password: 'Secret123',
        new_password: 'Another123',
        confirmation_password: 'Another124',
      },
    });
    expect(mismatch.body.detail).toBe('Passwords do not match');
  });

  it('refuses a wrong current password (400, not a sign-out status) and an unchanged one', async () => {
    const token = await server.login('alice@example.com', 'Secret123');
    const wrong = await server.call('POST', '/api/change-password', {
      token,
      body: { current_password: 'Nope12345', new_password: 'Another123' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/current password/);
    const same = await server.call('POST', '/api/change-password', {
      token,
      body: { current_password: 'Secret123', new_password: 'Secret123' },
    });
    expect(same.status).toBe(422);
    expect(same.body.detail).toMatch(/different/);
  });

  it('keeps the caller signed in and revokes every other session', async () => {
    await server.createUser({ email: 'bob@example.com', password: 'Bobpass123', team: 'Acme' });
    const mine = await server.login('bob@example.com', 'Bobpass123');
    const other = await server.login('bob@example.com', 'Bobpass123');
    const res = await server.call('POST', '/api/change-password', {
      token: mine,
      body: { current_password: 'Bobpass123', new_password: 'Bobpass456' },
    });
    expect(res.status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token: mine })).status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token: other })).status).toBe(401);
    await expect(server.login('bob@example.com', 'Bobpass123')).rejects.toThrow(/401/);
    await server.login('bob@example.com', 'Bobpass456');
  });
});

describe('housekeeping', () => {
  it('a login drops dead sessions and throttle events that no window uses any more', async () => {
    const db = server.ctx.db;
    const [user] = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [
      'alice@example.com',
    ]);
    const old = new Date(Date.now() - 10 * 24 * 3600e3);
    await db.query(
      "INSERT INTO sessions (user_id, token_hash, expires_at, refresh_until) VALUES ($1, 'dead', $2, $2)",
      [user!.id, old],
    );
    await db.query(
      "INSERT INTO throttle_events (scope, key, client_ip, at) VALUES ('login', 'old@example.com', '10.0.0.1', $1)",
      [old],
    );
    await server.login('alice@example.com', 'Secret123');
    expect(await db.query("SELECT 1 FROM sessions WHERE token_hash = 'dead'")).toHaveLength(0);
    expect(
      await db.query("SELECT 1 FROM throttle_events WHERE key = 'old@example.com'"),
    ).toHaveLength(0);
  });
});
