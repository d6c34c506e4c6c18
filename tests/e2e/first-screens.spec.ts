// Landing and login are prerendered into index.html and hydrated (issue 8): they show without the
// app's scripts (only index.html's own inline one), the app then takes them over without a hydration error, and a returning user's list
// renders no Chakra until the Upload button is used.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startApp, type E2eApp } from './support/app.ts';
import { FIRST_SCREEN_JS_BUDGET_BYTES, firstScreenScriptBytes } from './support/first-screen-js.ts';
import { journey } from './support/journey.ts';
import { logIn, messages } from './support/ui.ts';

const en = messages('en');
const EMAIL = 'first@example.com';
const PASSWORD = 'FirstScreens123';
let app: E2eApp;

before(async () => {
  app = await startApp();
  await app.createUser({ email: EMAIL, password: PASSWORD });
});

after(async () => {
  await app?.close();
});

journey(
  "landing and login show without the app's scripts",
  () => app,
  async () => {
    const context = await app.browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      // No module of the app ever arrives: what shows is index.html alone.
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(`${app.url}/`);
      await page.getByRole('heading', { level: 1, name: en['landing.intro.title']! }).waitFor();
      await page.getByRole('link', { name: en['landing.login']! }).waitFor();
      await page.goto(`${app.url}/login`);
      await page.getByRole('heading', { level: 1, name: en['login.title']! }).waitFor();
      await page.getByLabel(en['login.email']!, { exact: true }).waitFor();
      // Every other path is the empty shell the app renders into.
      await page.goto(`${app.url}/video`);
      assert.equal(await page.locator('#root').innerHTML(), '');
    } finally {
      await context.close();
    }
  },
);

journey(
  'the app takes the prerendered pages over without errors, input typed at once included',
  () => app,
  async (page) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto('/');
    await page.getByRole('link', { name: en['landing.login']! }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.goto('/login');
    // Typed as soon as the fields exist, before or while the app hydrates them.
    await logIn(page, EMAIL, PASSWORD);
    await page.waitForURL((u) => u.pathname === '/video');
    await page.getByRole('heading', { level: 1, name: en['videos.title']! }).waitFor();
    assert.deepEqual(errors, []);
  },
);

journey(
  'a returning user opens the list without Chakra, and Upload still opens the dialog',
  () => app,
  async (page) => {
    await page.goto('/login');
    await logIn(page, EMAIL, PASSWORD);
    await page.waitForURL((u) => u.pathname === '/video');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: en['videos.title']! }).waitFor();
    // Chakra's style runtime writes emotion style tags; the list and its shell have none.
    assert.equal(await page.locator('style[data-emotion]').count(), 0);
    await page.getByRole('button', { name: en['upload.button']!, exact: true }).click();
    await page.getByRole('dialog').getByText(en['upload.title']!).waitFor();
  },
);

journey(
  'landing and login are taken over without loading locale data',
  () => app,
  async (page) => {
    // Counts what loads ICU's number and date data (15-30 ms of CPU the first time, issue 29).
    await page.addInitScript(() => {
      const counted = window as unknown as { intlLoads: number };
      counted.intlLoads = 0;
      for (const ctor of [Intl.NumberFormat, Intl.DateTimeFormat]) {
        const original = ctor.supportedLocalesOf.bind(ctor) as (locales: string) => string[];
        ctor.supportedLocalesOf = (locales: string) => {
          counted.intlLoads++;
          return original(locales);
        };
      }
    });
    for (const path of ['/', '/login']) {
      await page.goto(path);
      // Hydrated: React has attached itself to the prerendered page.
      await page.waitForFunction(() =>
        Object.keys(document.getElementById('root')!.firstElementChild ?? {}).some((k) =>
          k.startsWith('__react'),
        ),
      );
      const loads = await page.evaluate(
        () => (window as unknown as { intlLoads: number }).intlLoads,
      );
      assert.equal(loads, 0, `${path}: locale data loaded during the takeover`);
    }
  },
);

journey(
  'landing and login start with at most 100 kB of JavaScript (gzip)',
  () => app,
  async (page) => {
    for (const path of ['/', '/login']) {
      const bytes = await firstScreenScriptBytes(page, app.url + path);
      assert.ok(
        bytes <= FIRST_SCREEN_JS_BUDGET_BYTES,
        `${path}: ${(bytes / 1000).toFixed(1)} kB of JavaScript (gzip), budget ${FIRST_SCREEN_JS_BUDGET_BYTES / 1000} kB`,
      );
    }
  },
);

journey(
  "the service worker's install waits until the first screen has been taken over",
  () => app,
  async (page) => {
    // Its install precaches the whole app (3.8 MB): registered at load, its thread's 0.4-0.6 s of
    // CPU and its fetches ran beside the first screen's hydration (issue 29).
    await page.goto('/login');
    await page.waitForFunction(() =>
      Object.keys(document.getElementById('root')!.firstElementChild ?? {}).some((k) =>
        k.startsWith('__react'),
      ),
    );
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.waitForTimeout(2000);
    const early = await page.evaluate(() =>
      navigator.serviceWorker.getRegistration().then((r) => r !== undefined),
    );
    assert.equal(early, false, 'service worker registered while the first screen started');
    // It still comes: the app works offline after the first visit.
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  },
);
