// First start with an empty database: a demo account, its password on the console and in
// DATA_DIR/demo-credentials.txt (mode 600); never again once users exist.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/src/config.ts';
import { startServer, type Running } from '../../server/src/server.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-demo-'));
// The embedded database in DATA_DIR, as `npm start` opens it; logs silenced, console kept.
const config = () =>
  loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    WEB_ROOT: path.join(dataDir, 'none'),
    LOG_LEVEL: 'silent',
  });
let running: Running | undefined;

afterAll(async () => {
  await running?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function login(r: Running, email: string, password: string) {
  const address = r.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as {
    user?: { must_change_password: boolean; team: { name: string } };
  };
  return { status: res.status, body };
}

async function startCapturingConsole(): Promise<string[]> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    running = await startServer(config());
    return log.mock.calls.map((c) => String(c[0]));
  } finally {
    log.mockRestore();
  }
}

describe('first start', () => {
  // Two starts on an on-disk database: slow on a busy machine.
  it(
    'creates the demo account once, announces it and writes the credentials file',
    { timeout: 180_000 },
    async () => {
      const lines = await startCapturingConsole();
      const file = path.join(dataDir, 'demo-credentials.txt');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const text = fs.readFileSync(file, 'utf8');
      expect(text).toContain('email: demo@example.com');
      const password = /password: ([A-Za-z0-9]{8,20})$/m.exec(text)?.[1];
      expect(password).toBeTruthy();
      const announced = lines.filter((l) => l.includes('demo@example.com'));
      expect(announced).toHaveLength(1);
      expect(announced[0]).toContain(password!);

      const res = await login(running!, 'demo@example.com', password!);
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ must_change_password: true, team: { name: 'Demo' } });
      await running!.close();
      running = undefined;

      // Second start: users exist, nothing is created, printed or rewritten.
      fs.rmSync(file);
      const again = await startCapturingConsole();
      expect(again.filter((l) => l.includes('demo@example.com'))).toEqual([]);
      expect(fs.existsSync(file)).toBe(false);
      expect((await login(running!, 'demo@example.com', password!)).status).toBe(200);
    },
  );
});
