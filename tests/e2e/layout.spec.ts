// Journeys of issue 2: the signed-in layout (a collapsible sidebar on large screens, a slide-in
// menu on phones, who is signed in, the language selector, Privacy policy, Profile, Logout, the
// full-screen loading indicator), unknown paths and the 404 page.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, messages, waitForPath, where } from './support/ui.ts';

const en = messages('en');
const email = 'layout@example.com';
const password = 'Layout2024pass';
const team = 'Layout Films';
let app: E2eApp;

before(async () => {
  app = await startApp();
  await app.createUser({ email, password, team });
});

after(async () => {
  await app?.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await logIn(page, email, password);
  await waitForPath(page, '/video');
  await page.getByText(en['videos.emptyTitle']!, { exact: true }).waitFor();
}

journey(
  'on a large screen the sidebar shows who is signed in and collapses to icons',
  () => app,
  async (page) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    const sidebar = page.getByRole('complementary');
    await sidebar.getByText(email, { exact: true }).waitFor();
    await sidebar.getByText(team, { exact: true }).waitFor();
    await sidebar.getByLabel(en['common.language']!, { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: en['nav.openMenu']! }).isVisible(), false);
    const wide = (await sidebar.boundingBox())?.width ?? 0;

    await sidebar.getByRole('button', { name: en['nav.collapse']! }).click();
    const expand = sidebar.getByRole('button', { name: en['nav.expand']! });
    await expand.waitFor();
    assert.equal(await expand.getAttribute('aria-expanded'), 'false');
    await sidebar.getByText(email, { exact: true }).waitFor({ state: 'detached' });
    // The transition ends: icons only, still named for assistive technology.
    await page.waitForFunction(
      (w) => (document.querySelector('aside')?.getBoundingClientRect().width ?? w) < w / 2,
      wide,
    );
    await sidebar.getByRole('link', { name: en['nav.profile']!, exact: true }).click();
    await waitForPath(page, '/profile');
    await expand.click();
    await sidebar.getByText(email, { exact: true }).waitFor();

    await sidebar.getByRole('link', { name: en['nav.privacy']!, exact: true }).click();
    await waitForPath(page, '/privacy-policy');
    await page.getByRole('heading', { level: 1, name: 'Privacy policy' }).waitFor();
    assert.equal(await page.getByRole('link', { name: en['privacy.login']! }).count(), 0);
    await page.getByRole('link', { name: en['privacy.home']! }).click();
    await waitForPath(page, '/video');

    await page.getByRole('complementary').getByRole('button', { name: en['nav.logout']! }).click();
    await waitForPath(page, '/login');
  },
);

journey(
  'on a phone the menu slides in with every entry and closes on navigation',
  () => app,
  async (page) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    assert.equal(await page.getByRole('complementary').isVisible(), false);
    await page.getByRole('button', { name: en['nav.openMenu']! }).click();
    const menu = page.getByRole('dialog');
    await menu.getByText(email, { exact: true }).waitFor();
    await menu.getByText(team, { exact: true }).waitFor();
    await menu.getByLabel(en['common.language']!, { exact: true }).waitFor();
    for (const name of ['nav.video', 'nav.advancedSearch', 'nav.privacy', 'nav.profile']) {
      await menu.getByRole('link', { name: en[name]!, exact: true }).waitFor();
    }
    await menu.getByRole('button', { name: en['nav.logout']! }).waitFor();
    await menu.getByRole('link', { name: en['nav.profile']!, exact: true }).click();
    await waitForPath(page, '/profile');
    await menu.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: en['nav.openMenu']! }).click();
    await page.getByRole('dialog').getByRole('button', { name: en['nav.logout']! }).click();
    await waitForPath(page, '/login');
  },
);

journey(
  'a full-screen loading indicator covers the page while a request runs',
  () => app,
  async () => {
    // Without the service worker, so the page's own requests can be held back here.
    const context = await app.browser.newContext({ baseURL: app.url, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await signIn(page);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/videos?*', async (route) => {
        await held;
        await route.continue();
      });
      // A fresh page load: the list has nothing to show until its answer arrives.
      await page.reload();
      const loader = page.getByRole('status', { name: en['common.loading']! });
      await loader.waitFor();
      release();
      await loader.waitFor({ state: 'detached' });
      await page.getByText(en['videos.emptyTitle']!, { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  },
);

journey(
  'unknown paths lead to the video list, and the 404 page says what is missing',
  () => app,
  async (page) => {
    // The 404 page asks for a sign-in like every page but Home and PrivacyPolicy (section 2).
    await signIn(page);
    await page.goto('/404');
    await page.getByText("Something's missing.", { exact: true }).waitFor();
    await page.getByText("Sorry, we can't find that page.", { exact: true }).waitFor();
    await page.goto('/no/such/page?tsiletihw=3');
    await page.waitForURL((u) => u.pathname === '/video');
    assert.equal(where(page), '/video?tsiletihw=3');
  },
);
