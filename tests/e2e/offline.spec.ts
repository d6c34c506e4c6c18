// Installable and offline (issue 8): after one online visit the video list, a detail and their
// images read offline from the service worker's per-user caches, the offline banner shows, and
// back online the data refreshes; logout leaves nothing of the user behind; a waiting service
// worker brings up the update prompt. The server serves a copy of the build so one journey can
// change sw.js under it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { USER_CACHE_PREFIXES } from '../../src/config/offline.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { WEB_ROOT } from './support/paths.ts';
import { logIn, messages, waitForAsync } from './support/ui.ts';

const m = messages('en');
const PASSWORD = 'OfflinePass123';
const A = 'ayako@example.com';
const B = 'bruno@example.com';
let app: E2eApp;
let webRoot: string;
let teamA: string;
let firstVideo: string;

before(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'va-offline-web-'));
  fs.cpSync(WEB_ROOT, webRoot, { recursive: true });
  app = await startApp({ webRoot });
  const a = await app.createUser({ email: A, password: PASSWORD, team: 'Team A' });
  const b = await app.createUser({ email: B, password: PASSWORD, team: 'Team B' });
  teamA = await teamOf(app.running.ctx, a);
  const ctx = app.running.ctx;
  const scenes = [{ description: 'Boats at the pier', frames: 2 }, { description: 'Gulls' }];
  firstVideo = (
    await seedCompletedVideo(ctx, { teamId: teamA, ownerId: a, title: 'Harbour at dawn', scenes })
  ).id;
  await seedCompletedVideo(ctx, { teamId: teamA, ownerId: a, title: 'Market day', scenes });
  const teamB = await teamOf(ctx, b);
  await seedCompletedVideo(ctx, { teamId: teamB, ownerId: b, title: 'Mountain pass', scenes });
});

after(async () => {
  await app?.close();
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

const rows = (page: Page) => page.getByTestId('video-row');

/** Signs in and reloads once so the service worker (installed on the first load) controls the page. */
async function signInControlled(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await logIn(page, email, PASSWORD);
  await page.waitForURL((u) => u.pathname === '/video');
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await page.reload();
  await page.waitForFunction('navigator.serviceWorker.controller !== null');
  await rows(page).first().waitFor();
}

/** Every <img> on the page finished loading the real 160 px image (not the 320 px placeholder). */
async function imagesLoaded(page: Page, min: number): Promise<void> {
  await page.waitForFunction(
    `(() => { const imgs = [...document.querySelectorAll('main img')];
      return imgs.length >= ${min} && imgs.every((i) => i.complete && i.naturalWidth === 160); })()`,
  );
}

/** The service worker stores an answer after handing it to the page: wait for it, do not race it. */
async function cachedApi(page: Page, pathname: string): Promise<void> {
  await waitForAsync(
    page,
    `caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith('api-'))
      .map((n) => caches.open(n).then((c) => c.keys()))))
      .then((lists) => lists.flat().some((r) => new URL(r.url).pathname === ${JSON.stringify(pathname)}))`,
    `${pathname} in the offline cache`,
  );
}

/** Every image on the page is in the user's image cache (written after the image was shown). */
async function imagesCached(page: Page): Promise<void> {
  await waitForAsync(
    page,
    `caches.keys().then(async (names) => {
      const open = await Promise.all(names.filter((n) => n.startsWith('images-')).map((n) => caches.open(n)));
      const srcs = [...document.querySelectorAll('main img')].map((i) => i.src);
      const hits = await Promise.all(srcs.map((src) =>
        Promise.all(open.map((c) => c.match(src, { ignoreSearch: true }))).then((r) => r.some(Boolean))));
      return srcs.length > 0 && hits.every(Boolean);
    })`,
    'the images in the offline cache',
  );
}

/** Names of caches that hold one user's data (src/config/offline.ts). */
const userCache = `/^(${USER_CACHE_PREFIXES.join('|')})/`;

const cacheNames = (page: Page): Promise<string[]> =>
  page.evaluate('caches.keys()') as Promise<string[]>;

journey(
  'after one online visit the list and a detail read offline, and refresh when back online',
  () => app,
  async (page) => {
    await signInControlled(page, A);
    assert.equal(await rows(page).count(), 2);
    await imagesLoaded(page, 2);
    await imagesCached(page);
    await page.goto(`/video-detail/${firstVideo}`);
    await page.getByTestId('video-summary').waitFor();
    await imagesLoaded(page, 1);
    await imagesCached(page);
    await cachedApi(page, '/api/videos');
    await cachedApi(page, `/api/videos/${firstVideo}`);

    await page.context().setOffline(true);
    // The service worker's own network is cut too: anything not cached fails.
    const health = await page.evaluate(
      "fetch('/api/health', { cache: 'no-store' }).then(() => 'reached', () => 'failed')",
    );
    assert.equal(health, 'failed');

    await page.reload();
    await page.getByTestId('video-summary').waitFor();
    await page.getByText(m['pwa.offline']!).waitFor();
    await imagesLoaded(page, 1);

    await page.goto('/video');
    await page.getByText('Harbour at dawn').first().waitFor();
    assert.equal(await rows(page).count(), 2);
    await imagesLoaded(page, 2);
    await page.getByText(m['pwa.offline']!).waitFor();

    // Meanwhile the team got a new video; back online the list refreshes by itself.
    await seedCompletedVideo(app.running.ctx, { teamId: teamA, title: 'Night ferry' });
    await page.context().setOffline(false);
    await page.getByText('Night ferry').first().waitFor();
    await page.getByText(m['pwa.offline']!).waitFor({ state: 'detached' });
  },
  { timeoutMs: 150_000 },
);

journey(
  'logout leaves nothing of the user on the device, offline or for the next user',
  () => app,
  async (page) => {
    await signInControlled(page, A);
    await imagesLoaded(page, 2);
    await cachedApi(page, '/api/videos');

    await page.getByRole('button', { name: m['nav.logout']!, exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === '/login');
    await waitForAsync(
      page,
      'caches.keys().then((names) => !names.some((n) => /^(api|images)-/.test(n)))',
      'the user caches to be deleted',
    );

    await page.context().setOffline(true);
    await page.goto('/video');
    await page.waitForURL((u) => u.pathname === '/login');
    assert.equal(await page.getByText('Harbour at dawn').count(), 0);
    await page.context().setOffline(false);

    // Another person on the same device sees only their own team, online and offline.
    await logIn(page, B, PASSWORD);
    await page.waitForURL((u) => u.pathname === '/video');
    await page.getByText('Mountain pass').first().waitFor();
    await page.context().setOffline(true);
    await page.reload();
    await page.getByText('Mountain pass').first().waitFor();
    assert.equal(await page.getByText('Harbour at dawn').count(), 0);
    const userCaches = (await cacheNames(page)).filter((n) => /^(api|images)-/.test(n));
    assert.ok(userCaches.length > 0);
    const ownerB = new Set(userCaches.map((n) => n.split('@')[1]));
    assert.equal(ownerB.size, 1, `caches of one user only: ${userCaches.join(', ')}`);
  },
  { timeoutMs: 150_000 },
);

journey(
  'logout on a page no service worker controls (after a hard reload) still deletes the user caches',
  () => app,
  async (page) => {
    await signInControlled(page, A);
    await imagesLoaded(page, 2);
    await imagesCached(page);
    await cachedApi(page, '/api/videos');
    // Shift+Reload: the browser bypasses the service worker, which then controls nothing here.
    const cdp = await page.context().newCDPSession(page);
    await Promise.all([page.waitForEvent('load'), cdp.send('Page.reload', { ignoreCache: true })]);
    await rows(page).first().waitFor();
    assert.equal(await page.evaluate('navigator.serviceWorker.controller'), null);

    await page.getByRole('button', { name: m['nav.logout']!, exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === '/login');
    await waitForAsync(
      page,
      `caches.keys().then((names) => !names.some((n) => ${userCache}.test(n)))`,
      'the user caches to be deleted',
    );
    // The expiration plugin's timestamps name the URLs the user saw: they are gone too.
    await waitForAsync(
      page,
      `new Promise((resolve) => {
        const open = indexedDB.open('workbox-expiration');
        open.onsuccess = () => {
          const all = open.result.transaction('cache-entries').objectStore('cache-entries').getAll();
          all.onsuccess = () => resolve(!all.result.some((e) => ${userCache}.test(e.cacheName)));
        };
      })`,
      'the expiration timestamps of the user caches to be deleted',
    );
  },
  { timeoutMs: 120_000 },
);

journey(
  'a new service worker waiting brings up the update prompt, and Reload applies it',
  () => app,
  async (page) => {
    await signInControlled(page, A);
    const before = String(await page.evaluate('navigator.serviceWorker.controller.scriptURL'));
    // A new release: the served sw.js changes, and the browser's update check finds it.
    fs.appendFileSync(path.join(webRoot, 'sw.js'), `\n// release ${Date.now()}\n`);
    await page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())');
    const prompt = page.getByTestId('update-prompt');
    await prompt.getByText(m['pwa.updateAvailable']!).waitFor();

    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: m['pwa.reload']!, exact: true }).click();
    await reloaded;
    await rows(page).first().waitFor();
    assert.equal(await prompt.count(), 0);
    const waiting = await page.evaluate(
      'navigator.serviceWorker.getRegistration().then((r) => r.waiting === null)',
    );
    assert.equal(waiting, true);
    assert.equal(
      String(await page.evaluate('navigator.serviceWorker.controller.scriptURL')),
      before,
    );
  },
  { timeoutMs: 120_000 },
);
