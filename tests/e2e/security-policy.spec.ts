// The app under its real Content-Security-Policy (issue 15): every journey already runs under
// the server's headers and fails on a violation (support/browser.ts). This one walks the parts
// the policy could break that other journeys may not reach: the first-paint inline script (by
// hash), Chakra's run-time styles, and mediainfo.js compiling its WebAssembly in the probe
// worker (a fragmented MP4, whose duration mp4box.js cannot read).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { makeClip } from '../support/container-clips.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, waitForPath } from './support/ui.ts';

const email = 'policy@example.com';
const password = 'Policy2024pass';
let app: E2eApp;
let fragmented: string;
let workDir: string;

before(async () => {
  app = await startApp();
  await app.createUser({ email, password });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-e2e-policy-'));
  fragmented = path.join(workDir, 'fragmented.mp4');
  fs.copyFileSync(await makeClip({ seconds: 3, format: 'mp4', fragmented: true }), fragmented);
});

after(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  await app?.close();
});

journey(
  'the app shell, Chakra and the mediainfo.js probe work under the policy',
  () => app,
  async (page) => {
    const shell = await page.goto('/login');
    const csp = shell?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    assert.match(csp, /frame-ancestors 'none'/);
    await logIn(page, email, password);
    await waitForPath(page, '/video');

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('About the video', { exact: true }).fill('Policy check');
    await dialog.getByRole('button', { name: 'Next', exact: true }).click();
    await dialog.getByLabel('Choose a video file', { exact: true }).setInputFiles(fragmented);
    // Only mediainfo.js reads this file's duration: its WASM ran under 'wasm-unsafe-eval'.
    await dialog.getByText('Duration: 00:00:03', { exact: true }).waitFor();
  },
  { timeoutMs: 240_000 },
);
