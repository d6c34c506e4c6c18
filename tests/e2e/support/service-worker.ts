// Journeys with the app's service worker in control: a copy of the build to serve, whose sw.js a
// journey can change (a new release), a sign-in the worker controls, and the release itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { WEB_ROOT } from './paths.ts';
import { logIn, waitForAsync } from './ui.ts';

/** A copy of the web build for startApp({ webRoot }); the spec removes it when done. */
export function copyOfWebBuild(name: string): string {
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), `va-${name}-web-`));
  fs.cpSync(WEB_ROOT, webRoot, { recursive: true });
  return webRoot;
}

/** Signs in and reloads once so the service worker (installed on the first load) controls the page. */
export async function signInControlled(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await logIn(page, email, password);
  await page.waitForURL((u) => u.pathname === '/video');
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.getByTestId('video-row').first().waitFor();
}

/** A new release: the served sw.js changes, and the browser's update check finds it. */
export async function releaseNewWorker(page: Page, webRoot: string): Promise<void> {
  fs.appendFileSync(path.join(webRoot, 'sw.js'), `\n// release ${Date.now()}\n`);
  await page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())');
}

/** The list fetches the upload dialog's output languages for later: wait until they are kept. */
export async function languagesOnDevice(page: Page): Promise<void> {
  await waitForAsync(
    page,
    `caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n)
      .then((c) => c.match('/api/supported-videos-languages', { ignoreSearch: true })))))
      .then((hits) => hits.some(Boolean))`,
    'the output languages on the device',
  );
}
