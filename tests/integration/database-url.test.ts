// DATABASE_URL: the server speaks to PostgreSQL through node-postgres. Here the PostgreSQL is
// an in-memory PGlite with pgvector served over the wire protocol by its socket server.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../support/admin-cli.ts';
import { seedCompletedVideo } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let pglite: PGlite;
let socket: PGLiteSocketServer;
let server: TestServer;
let databaseUrl: string;

/** `npm run admin -- ...` against the same PostgreSQL, as its own process. */
const admin = (...args: string[]) =>
  runAdmin({ DATABASE_URL: databaseUrl, DATA_DIR: server.dataDir }, ...args);

beforeAll(async () => {
  pglite = await PGlite.create({ extensions: { vector } });
  // More connections than the server's pool, so the pool is never refused.
  socket = new PGLiteSocketServer({ db: pglite, port: 0, host: '127.0.0.1', maxConnections: 32 });
  await socket.start();
  databaseUrl = `postgres://postgres@${socket.getServerConn()}/postgres`;
  server = await startTestServer({ DATABASE_URL: databaseUrl });
  // Two database engines start here (the served PGlite and the server's pool): slow when busy.
}, 180_000);
afterAll(async () => {
  await server?.close();
  await socket?.stop();
  await pglite?.close();
});

describe('DATABASE_URL', () => {
  it('runs the migrations and serves sign-in against PostgreSQL', async () => {
    expect(server.ctx.db.kind).toBe('postgres');
    const applied = await pglite.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(applied.rows.map((r) => r.version)).toContain(2);
    await server.createUser({ email: 'pg@example.com', password: 'Postgres1' });
    const token = await server.login('pg@example.com', 'Postgres1');
    const profile = await server.call('GET', '/api/profile', { token });
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe('pg@example.com');
  });

  it('handles concurrent requests with transactions (refresh, password change)', async () => {
    await server.createUser({ email: 'many@example.com', password: 'Postgres1' });
    // Six sessions, signed in one after the other: one address may hash at most four passwords
    // at once (the scrypt cap of issue 15); the concurrency under test is what follows.
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push(await server.login('many@example.com', 'Postgres1'));
    const refreshed = await Promise.all(
      tokens.map((token) => server.call('GET', '/api/refresh', { token })),
    );
    expect(refreshed.map((r) => r.status)).toEqual(tokens.map(() => 200));
    const fresh = refreshed.map((r) => r.body.access_token as string);
    const [profiles, wrong] = await Promise.all([
      Promise.all(fresh.map((token) => server.call('GET', '/api/profile', { token }))),
      server.call('POST', '/api/login', { body: { email: 'many@example.com', password: 'nope' } }),
    ]);
    expect(profiles.every((p) => p.status === 200)).toBe(true);
    // A burst of parameterised queries from many requests at once (each reads session and user).
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        server.call('GET', '/api/profile', { token: fresh[i % fresh.length] }),
      ),
    );
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 200));
    expect(wrong.status).toBe(401);
    const change = await server.call('POST', '/api/change-password', {
      token: fresh[0],
      body: { current_password: 'Postgres1', new_password: 'Postgres2' },
    });
    expect(change.status).toBe(200);
    const after = await Promise.all(
      fresh.map((token) => server.call('GET', '/api/profile', { token })),
    );
    expect(after.map((r) => r.status)).toEqual([200, 401, 401, 401, 401, 401]);
  });

  it('lets the admin command make and list accounts while the server runs', async () => {
    const created = await admin(
      'create-user',
      '--email',
      'while-running@example.com',
      '--team',
      'Shared PG',
      '--team-admin',
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const password = /Initial password: (\S+)/.exec(created.stdout)?.[1] ?? '';
    // The running server sees the new account at once and makes it change its password.
    const login = await server.call('POST', '/api/login', {
      body: { email: 'while-running@example.com', password },
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({
      must_change_password: true,
      is_team_admin: true,
      team: { name: 'Shared PG' },
    });
    const listed = await admin('list-users');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/while-running@example\.com\s+Shared PG/);
  }, 240_000);

  it('keeps concurrent parameterised queries apart on the served PGlite', async () => {
    // Without one connection, the messages of parallel queries interleave on PGlite's single
    // backend and fail with "unnamed prepared statement does not exist".
    const db = server.ctx.db;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0
          ? db.tx((q) => q.query<{ v: number }>('SELECT $1::int AS v', [i]))
          : db.query<{ v: number }>('SELECT $1::int AS v', [i]),
      ),
    );
    expect(results.map((rows) => rows[0]?.v)).toEqual(results.map((_, i) => i));
  });

  it('searches with each method, the HNSW width set for the statement only', async () => {
    const userId = await server.createUser({ email: 'find@example.com', password: 'Postgres1' });
    const [user] = await server.ctx.db.query<{ team_id: string }>(
      'SELECT team_id FROM users WHERE id = $1',
      [userId],
    );
    const teamId = user!.team_id;
    const harbour = await seedCompletedVideo(server.ctx, {
      teamId,
      ownerId: userId,
      title: 'Harbour cranes at night',
      scenes: [{ description: 'Cranes load a ship in the harbour' }],
    });
    await seedCompletedVideo(server.ctx, {
      teamId,
      ownerId: userId,
      title: 'Snow on the market',
      scenes: [{ description: 'Stalls under falling snow' }],
    });
    const token = await server.login('find@example.com', 'Postgres1');
    for (const method of ['dense', 'sparse', 'hybrid']) {
      const res = await server.call(
        'GET',
        `/api/videos/find-similar-videos?description=harbour%20cranes&searchMethod=${method}`,
        { token },
      );
      expect(res.status, method).toBe(200);
      expect(res.body.items[0]?.id, method).toBe(harbour.id);
    }
    const db = server.ctx.db;
    const [width] = await db.queryWith<{ v: string }>(
      { 'hnsw.ef_search': '77' },
      "SELECT current_setting('hnsw.ef_search') AS v",
    );
    expect(width?.v).toBe('77');
    const after = await db.query<{ v: string }>("SELECT current_setting('hnsw.ef_search') AS v");
    expect(after[0]?.v).not.toBe('77');
  });
});
