// Installable and offline (issue 8): after one online visit the video list, a detail and their
// images read offline from the service worker's per-user caches, the offline banner shows, and
// back online the data refreshes; every client route opens offline from the precached shell and
// route chunks; an upload chosen offline is queued and completes once back online; logout leaves
// nothing of the user behind; a waiting service worker brings up the update prompt. The server
// serves a copy of the build so one journey can change sw.js under it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { USER_CACHE_PREFIXES } from '../../src/config/offline.ts';
import { makeVideo } from '../support/media.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import {
  copyOfWebBuild,
  languagesOnDevice,
  releaseNewWorker,
  signInControlled,
} from './support/service-worker.ts';
import { logIn, messages, waitForAsync } from './support/ui.ts';
import { distinctCopy, uploadThroughDialog } from './support/upload-dialog.ts';

const m = messages('en');
const PASSWORD = 'OfflinePass123';
const A = 'ayako@example.com';
const B = 'bruno@example.com';
let app: E2eApp;
let webRoot: string;
let teamA: string;
let firstVideo: string;
let clip: string;

before(async () => {
  webRoot = copyOfWebBuild('offline');
  clip = (await makeVideo({ segments: [{ source: 'testsrc', seconds: 3 }], fps: 10 })).file;
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

/** Every <img> on the page finished loading the real 160 px image (not the 320 px placeholder). */
async function imagesLoaded(page: Page, min: number): Promise<void> {
  // A function, not a string: the app's Content-Security-Policy refuses eval, which string
  // predicates need once polling starts.
  await page.waitForFunction((least) => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>('main img')];
    return imgs.length >= least && imgs.every((i) => i.complete && i.naturalWidth === 160);
  }, min);
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
    await signInControlled(page, A, PASSWORD);
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

/** Offline, opens `route` as a reload would (the service worker answers with the shell). */
async function openOffline(page: Page, route: string, heading: string): Promise<void> {
  await page.goto(route);
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** The button is there, disabled, and says it needs the network. */
async function needsNetwork(page: Page, name: string): Promise<void> {
  const button = page.getByRole('button', { name, exact: true });
  assert.equal(await button.isDisabled(), true, name);
  assert.equal(await button.getAttribute('title'), m['pwa.needsNetwork'], name);
}

journey(
  'offline, every client route opens from the shell, screens never opened online included',
  () => app,
  async (page) => {
    // One online visit: the list (the layout loads the profile), a detail and a similar search.
    await signInControlled(page, A, PASSWORD);
    await cachedApi(page, '/api/profile');
    await page.goto(`/video-detail/${firstVideo}`);
    await page.getByTestId('video-summary').waitFor();
    await cachedApi(page, `/api/videos/${firstVideo}`);
    const similar = `/video/similar/${firstVideo}?video=true&kValue=10&searchMethod=hybrid`;
    await page.goto(similar);
    const results = page.getByRole('list', { name: m['results.listLabel']!, exact: true });
    await results.getByText('Market day').first().waitFor();
    await cachedApi(page, '/api/videos/find-similar-videos');

    await page.context().setOffline(true);
    const banner = page.getByText(m['pwa.offline']!);

    await openOffline(page, similar, m['results.topPicks']!.replace('{k}', '10'));
    await results.getByText('Market day').first().waitFor();
    await banner.waitFor();

    // The rest were never opened online: their route chunks come from the precache.
    await openOffline(page, `/video-detail/${firstVideo}?sceneIndex=1`, 'Harbour at dawn');
    await page.getByTestId('scene-description').getByText('Gulls').waitFor();
    await needsNetwork(page, m['detail.searchSimilarScenes']!);
    await banner.waitFor();

    await openOffline(
      page,
      `/video-detail/${firstVideo}/scene/0/frames`,
      m['frames.title']!.replace('{n}', '0'),
    );
    const frames = page.getByRole('list', { name: m['detail.frames']!, exact: true });
    await frames.waitFor();
    assert.equal(await frames.getByRole('listitem').count(), 2, 'the frames of scene #0');
    await banner.waitFor();

    await openOffline(page, '/profile', m['profile.menu.account']!);
    await needsNetwork(page, m['profile.save']!);
    await banner.waitFor();
    // A navigation inside the app, to a section whose code was not loaded yet.
    await page.getByRole('link', { name: m['profile.menu.changePassword']!, exact: true }).click();
    await page.getByRole('heading', { name: m['password.title']!, exact: true }).waitFor();

    await openOffline(page, '/advanced-search', m['nav.advancedSearch']!);
    await banner.waitFor();
    await openOffline(
      page,
      `/advanced-search/${firstVideo}?sceneIndex=1&video=false`,
      m['nav.advancedSearch']!,
    );
    await needsNetwork(page, m['search.similarScenes']!);

    await openOffline(page, '/privacy-policy', m['privacy.title']!);
    await openOffline(page, '/404', m['notFound.title']!);
    await page.context().setOffline(false);
  },
  { timeoutMs: 120_000 },
);

journey(
  'offline, an upload is queued, and it completes once back online',
  () => app,
  async (page) => {
    await signInControlled(page, A, PASSWORD);
    // The list fetches the dialog's output languages for later, though the dialog never opened.
    await languagesOnDevice(page);
    await page.context().setOffline(true);
    await page.getByText(m['pwa.offline']!).waitFor();
    const name = 'queued-offline.mp4';
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'va-offline-upload-')), name);
    distinctCopy(clip, file);
    try {
      await uploadThroughDialog(page, file, { about: 'Night ferry', duration: '00:00:03' });
      const row = page.locator('[data-upload-state="offline"]', { hasText: name }).first();
      // "Offline. The upload continues when you are back online (0% uploaded)."
      await row.getByText(m['upload.state.offline']!.split(' (')[0]!).waitFor();
      const statuses = async () =>
        (
          await app.running.ctx.db.query<{ status: string }>(
            'SELECT status FROM videos WHERE filename = $1',
            [name],
          )
        ).map((v) => v.status);
      assert.deepEqual(await statuses(), [], 'nothing reached the server while offline');

      await page.context().setOffline(false);
      // Done: the server has the video once with its status call made, and the queue row is gone.
      const until = Date.now() + 60_000;
      while ((await statuses()).every((status) => status === 'uploading') && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 250));
      assert.equal((await statuses()).length, 1, `videos named ${name}`);
      assert.notEqual((await statuses())[0], 'uploading', 'the status call was made');
      await page.waitForFunction(() => !document.querySelector('[data-upload-job]'));
      await page
        .getByRole('list', { name: m['videos.listLabel']!, exact: true })
        .getByText(name)
        .waitFor();
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  },
  { timeoutMs: 120_000 },
);

journey(
  'logout leaves nothing of the user on the device, offline or for the next user',
  () => app,
  async (page) => {
    await signInControlled(page, A, PASSWORD);
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
    await signInControlled(page, A, PASSWORD);
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
    await signInControlled(page, A, PASSWORD);
    const before = String(await page.evaluate('navigator.serviceWorker.controller.scriptURL'));
    await releaseNewWorker(page, webRoot);
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
