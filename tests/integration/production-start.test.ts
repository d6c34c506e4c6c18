// Issue 18: a release installed without the build tools (`npm ci --omit=dev`) starts with
// `npm start` and serves the web app it ships in dist/, even when its sources look newer; with no
// build at all it stops with a message that says what to do. The repository's files are copied
// to a temp folder and installed from npm's cache (offline), as CI has it after its own `npm ci`.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_HTML, npmStart, type NpmStart } from '../support/npm-start.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const release = fs.mkdtempSync(path.join(os.tmpdir(), 'va-release-'));
let started: NpmStart | undefined;

beforeAll(() => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && fs.existsSync(path.join(root, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(release, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(release, f));
  }
  const install = spawnSync(
    'npm',
    ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: release, encoding: 'utf8', timeout: 600_000 },
  );
  if (install.status !== 0) throw new Error(`npm ci --omit=dev failed:\n${install.stderr}`);
  // The build a release ships, older than its sources (copied just now).
  fs.mkdirSync(path.join(release, 'dist'));
  fs.writeFileSync(path.join(release, 'dist', 'index.html'), INDEX_HTML);
  const old = new Date(Date.now() - 24 * 3600e3);
  fs.utimesSync(path.join(release, 'dist', 'index.html'), old, old);
}, 600_000);

afterAll(async () => {
  started?.cleanUp();
  await fs.promises.rm(release, { recursive: true, force: true });
}, 300_000);

describe('npm ci --omit=dev && npm start', () => {
  it('installs no build tools and serves the shipped build of the web app', async () => {
    expect(fs.existsSync(path.join(release, 'node_modules', '.bin', 'vite'))).toBe(false);
    started = await npmStart({ cwd: release, env: { WEB_ROOT: path.join(release, 'dist') } });
    expect(started.output()).toContain('the build tools are not installed');
    const page = await fetch(`${started.url}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(INDEX_HTML);
    expect(await (await fetch(`${started.url}/api/health`)).json()).toEqual({ status: 'ok' });
    started.cleanUp();
    started = undefined;
  }, 300_000);

  it('without a build, stops at once and says how to make one', () => {
    fs.rmSync(path.join(release, 'dist'), { recursive: true });
    const res = spawnSync('npm', ['start'], {
      cwd: release,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, DATA_DIR: path.join(release, 'data'), WEB_ROOT: '', PORT: '0' },
    });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('The web app is not built');
    expect(res.stderr).toContain('npm run build');
    expect(res.stderr).not.toMatch(/^\s+at /m); // a message, not a stack trace
  }, 180_000);
});
