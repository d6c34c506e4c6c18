// The admin command as a person runs it (OPERATIONS.md), with the server stopped, against the
// embedded database of a temporary DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.ts';
import { startServer, type Running } from '../../server/src/server.ts';
import { runAdmin } from '../support/admin-cli.ts';

let dataDir: string;

const admin = (...args: string[]) => runAdmin({ DATA_DIR: dataDir, DATABASE_URL: '' }, ...args);

/** Starts the real server on DATA_DIR, signs in over HTTP, stops it again. */
async function loginOnce(email: string, password: string) {
  const running: Running = await startServer(
    loadConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      WEB_ROOT: path.join(dataDir, 'none'),
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
  try {
    const address = running.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } finally {
    await running.close();
  }
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-admin-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// Each call starts Node and opens the embedded database from disk: slow on a busy machine.
const SLOW = { timeout: 240_000 };

describe('npm run admin', () => {
  it(
    'creates users with a given or random initial password that must be changed',
    SLOW,
    async () => {
      const given = await admin(
        'create-user',
        '--email',
        'owner@example.com',
        '--team',
        'Acme Films',
        '--name',
        'Olivia Owner',
        '--username',
        'olivia',
        '--password',
        'Start1234',
        '--team-admin',
      );
      expect(given.stderr).toBe('');
      expect(given.code).toBe(0);
      expect(given.stdout).toContain('Initial password: Start1234');

      const random = await admin(
        'create-user',
        '--email',
        'member@example.com',
        '--team',
        'Acme Films',
      );
      expect(random.code).toBe(0);
      const password = /Initial password: (\S+)/.exec(random.stdout)?.[1] ?? '';
      expect(password).toMatch(/^[A-Za-z0-9]{8,20}$/);
      expect(random.stdout).toContain('username:   member');

      const res = await loginOnce('member@example.com', password);
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({
        must_change_password: true,
        team: { name: 'Acme Films' },
      });
      // No demo account: the database was not empty at first start.
      expect(fs.existsSync(path.join(dataDir, 'demo-credentials.txt'))).toBe(false);
    },
  );

  it('lists users', SLOW, async () => {
    const res = await admin('list-users');
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+TEAM\s+USERNAME/);
    expect(
      lines.some((l) =>
        /owner@example\.com\s+Acme Films\s+olivia\s+Olivia Owner\s+yes\s+yes/.test(l),
      ),
    ).toBe(true);
    expect(lines.some((l) => /member@example\.com\s+Acme Films\s+member/.test(l))).toBe(true);
  });

  it('fails clearly, without a stack trace, on bad input', SLOW, async () => {
    const cases: [string[], RegExp][] = [
      [['create-user', '--email', 'OWNER@example.com', '--team', 'Acme Films'], /already exists/],
      [['create-user', '--email', 'not-an-email', '--team', 'X'], /valid e-mail/],
      [['create-user', '--email', 'x@example.com'], /--team is required/],
      [
        ['create-user', '--email', 'y@example.com', '--team', 'X', '--password', 'short'],
        /at least 8/,
      ],
      [['create-user', '--bogus'], /Unknown option/],
      [['delete-user', '--email', 'ghost@example.com'], /No user/],
      [['frobnicate'], /Unknown command/],
    ];
    for (const [args, message] of cases) {
      const res = await admin(...args);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr).toMatch(message);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('deletes a user', SLOW, async () => {
    const res = await admin('delete-user', '--email', 'member@example.com');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Deleted user member@example.com');
    const list = await admin('list-users');
    expect(list.stdout).not.toContain('member@example.com');
  });
  it('refuses to open the embedded database while a server has it open', SLOW, async () => {
    const running = await startServer(
      loadConfig({ PORT: '0', DATA_DIR: dataDir, WEB_ROOT: path.join(dataDir, 'none') }),
      { logger: false },
    );
    try {
      const res = await admin('list-users');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`is in use by process ${process.pid}`);
      expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      await running.close();
    }
    expect((await admin('list-users')).code).toBe(0); // the lock went with the server
  });
});
