// The one server process serves the PWA: deep links get index.html, the API and unknown paths
// answer JSON, the service worker is never cached, and the app starts in a real browser.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';

let app: E2eApp;

before(async () => {
  app = await startApp();
});

after(async () => {
  await app?.close();
});

journey(
  'deep links, API and assets are served by the one server',
  () => app,
  async () => {
    const health = await fetch(`${app.url}/api/health`);
    assert.deepEqual(await health.json(), { status: 'ok' });

    for (const route of ['/', '/login', '/video', '/profile?type=change_password', '/nowhere']) {
      const res = await fetch(app.url + route);
      assert.equal(res.status, 200, route);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/, route);
      assert.match(await res.text(), /<div id="root">/, route);
    }

    const sw = await fetch(`${app.url}/sw.js`);
    assert.equal(sw.status, 200);
    assert.equal(sw.headers.get('cache-control'), 'no-cache');

    for (const route of ['/api/nope', '/assets/missing.js']) {
      const res = await fetch(app.url + route);
      assert.equal(res.status, 404, route);
      assert.match(String(((await res.json()) as { detail: unknown }).detail), /Not found/, route);
    }
  },
);

journey(
  'the app starts in Chromium without page errors',
  () => app,
  async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto('/');
    await page
      .getByRole('link', { name: 'Log in' })
      .or(page.getByRole('button', { name: 'Log in' }))
      .first()
      .waitFor();
    assert.deepEqual(errors, []);
  },
);
