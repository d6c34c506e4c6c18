// `npm start` as a person runs it (OPERATIONS.md): one process that serves the built PWA (client
// routes fall back to index.html), the API and the assets, logs JSON lines, creates the demo
// account on the first start, and stops cleanly on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-start-'));
const dataDir = path.join(tmp, 'data');
const webRoot = path.join(tmp, 'web');
const INDEX = '<!doctype html><html lang="en"><body><div id="root"></div></body></html>';

let child: ChildProcess;
let url = '';
let stdout = '';
let exited: Promise<number | null>;

/** The stdout lines that are JSON objects (the logs), parsed. */
function jsonLines(): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function waitFor(what: string, check: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${stdout}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  // A built web app that is newer than every source, so nothing is rebuilt.
  fs.mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
  fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1);');
  const future = new Date(Date.now() + 365 * 24 * 3600e3);
  fs.utimesSync(path.join(webRoot, 'index.html'), future, future);

  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // npm's own script line, without npm in between (so the signal reaches the server itself).
  child = spawn(process.execPath, ['--import', 'tsx', 'server/bin/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '',
      DATA_DIR: dataDir,
      WEB_ROOT: webRoot,
      DATABASE_URL: '',
      SMTP_URL: '',
      WORKER: 'off',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor('the server to listen', () => stdout.includes('Server listening at'));
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('npm start', () => {
  it('listens on HOST:PORT (127.0.0.1 by default) and says so in a JSON log line', () => {
    const listening = jsonLines().find((l) => String(l.msg).startsWith('Server listening at'));
    expect(listening).toMatchObject({ level: 30, msg: `Server listening at ${url}` });
    expect(typeof listening?.time).toBe('number');
    // One process holds the embedded database in DATA_DIR.
    expect(fs.readFileSync(path.join(dataDir, 'db.lock'), 'utf8')).toBe(String(child.pid));
  });

  it('creates the demo account on the first start and prints its password once', () => {
    const printed = stdout.split('\n').filter((l) => l.includes('demo@example.com'));
    expect(printed).toHaveLength(1);
    const password = /password: (\S+)/.exec(
      fs.readFileSync(path.join(dataDir, 'demo-credentials.txt'), 'utf8'),
    )?.[1];
    expect(password).toBeTruthy();
    expect(printed[0]).toContain(password!);
  });

  it('serves the PWA, its client routes, the API and unknown paths the right way', async () => {
    for (const route of ['/', '/login', '/video/similar/abc?kValue=10', '/no/such/page']) {
      const res = await fetch(url + route);
      expect(res.status, route).toBe(200);
      expect(await res.text(), route).toBe(INDEX);
    }
    const script = await fetch(`${url}/assets/app-abc123.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ status: 'ok' });
    for (const route of ['/api/nothing', '/assets/missing.js', '/assets/data/output/x.jpg']) {
      const res = await fetch(url + route);
      expect(res.status, route).toBe(404);
      expect(typeof ((await res.json()) as { detail: unknown }).detail, route).toBe('string');
    }
  });

  it('logs each request as structured JSON', async () => {
    await fetch(`${url}/api/health?probe=1`);
    await waitFor('the request log', () => stdout.includes('/api/health?probe=1'), 10_000);
    const entry = jsonLines().find(
      (l) => (l.req as { url?: string } | undefined)?.url === '/api/health?probe=1',
    );
    expect(entry).toMatchObject({ level: 30, req: { method: 'GET' } });
    expect(typeof entry?.reqId).toBe('string');
  });

  it('stops cleanly on SIGTERM', async () => {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The embedded database was closed and its lock given back (the admin command needs it).
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  });
});
