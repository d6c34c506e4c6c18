// `npm run dev`: the Vite dev server (hot reload) on PORT with the API server behind it, so the
// app is opened at the same address as with `npm start`.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-dev-'));
let child: ChildProcess;
let url = '';
let output = '';
let exited: Promise<number | null>;

beforeAll(async () => {
  const [port, apiPort] = [await freePort(), await freePort()];
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'server/bin/dev.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      API_PORT: String(apiPort),
      DATA_DIR: path.join(tmp, 'data'),
      DATABASE_URL: '',
      WORKER: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 150_000;
  for (;;) {
    const ok = await fetch(`${url}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the dev server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}, 180_000);

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('serves the app from source with hot reload, client routes included', async () => {
    for (const route of ['/', '/video/similar/abc']) {
      const res = await fetch(url + route);
      expect(res.status, route).toBe(200);
      const html = await res.text();
      expect(html, route).toContain('/@vite/client');
      expect(html, route).toContain('<div id="root">');
    }
  });

  it('passes /api and /assets/data to the API server behind it', async () => {
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ status: 'ok' });
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password: 'NotTheOne1' }),
    });
    expect(login.status).toBe(401);
    const asset = await fetch(`${url}/assets/data/output/nothing.jpg`);
    expect(asset.status).toBe(404);
    expect(typeof ((await asset.json()) as { detail: unknown }).detail).toBe('string');
  });

  it('stops both servers on SIGTERM, the embedded database closed first', async () => {
    const lock = path.join(tmp, 'data', 'db.lock');
    expect(fs.existsSync(lock)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);
  }, 30_000);
});
