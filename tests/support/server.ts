// A real server on a free loopback port, with a fresh in-memory PGlite and a temp DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../../server/src/auth/passwords.ts';
import { loadConfig, type Config } from '../../server/src/config.ts';
import { findOrCreateTeam, insertUser } from '../../server/src/repositories/users.ts';
import { startServer, type Running } from '../../server/src/server.ts';
import { openTestDb } from './test-db.ts';

export interface TestServer extends Running {
  url: string;
  dataDir: string;
  /** Makes an account directly in the database; password already changed unless told. */
  createUser(opts: {
    email: string;
    password: string;
    team?: string;
    fullName?: string;
    username?: string;
    mustChangePassword?: boolean;
    isTeamAdmin?: boolean;
  }): Promise<string>;
  /** Logs in over HTTP and returns the bearer token. */
  login(email: string, password: string): Promise<string>;
  /** One JSON call; answers status and parsed body. */
  call(
    method: string,
    urlPath: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-test-'));
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_ROOT: path.join(dataDir, 'no-web'),
    LOG_LEVEL: 'warn',
    ...env,
  });
  const db = env.DATABASE_URL ? undefined : await openTestDb();
  const running = await startServer(config, { logger: false, ...(db ? { db } : {}) });
  const address = running.app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a port');
  const url = `http://127.0.0.1:${address.port}`;
  running.ctx.config.publicUrl = url;

  const call: TestServer['call'] = async (method, urlPath, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + urlPath, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, body };
  };

  return {
    ...running,
    url,
    dataDir,
    call,
    async createUser(o) {
      const teamId = await findOrCreateTeam(running.ctx.db, o.team ?? 'Test team');
      return insertUser(running.ctx.db, {
        teamId,
        email: o.email,
        fullName: o.fullName ?? 'Test User',
        username: o.username ?? o.email.split('@')[0]!,
        passwordHash: await hashPassword(o.password),
        isTeamAdmin: o.isTeamAdmin ?? false,
        mustChangePassword: o.mustChangePassword ?? false,
      });
    },
    async login(email, password) {
      const res = await call('POST', '/api/login', { body: { email, password } });
      if (res.status !== 200)
        throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.access_token as string;
    },
    async close() {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
