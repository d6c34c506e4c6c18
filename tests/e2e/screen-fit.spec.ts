// Texts and cards that must fit the screen in both languages, measured in Chromium: the offline
// banner on one line beside the sidebar at 1280 px, and search result cards on a 390 x 844 phone
// whose title and text get the card's width (the thumbnail above them), with nothing wider than
// the screen.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, messages } from './support/ui.ts';

const EMAIL = 'fit@example.com';
const PASSWORD = 'Fitting2024pass';
const TITLE = 'Harbour festival fireworks over the old town and its stone pier';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const LOCALES = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'ja', locale: 'ja-JP' },
] as const;

let app: E2eApp;

before(async () => {
  app = await startApp();
  const userId = await app.createUser({ email: EMAIL, password: PASSWORD, team: 'Fit team' });
  await seedCompletedVideo(app.running.ctx, {
    teamId: await teamOf(app.running.ctx, userId),
    ownerId: userId,
    filename: 'festival.mp4',
    title: TITLE,
    summary: 'Fireworks light the harbour at night while crowds watch from the pier.',
    scenes: [
      { description: 'Crowds gather on the pier before the fireworks begin.', frames: 1 },
      { description: 'Fireworks burst above the harbour and the old town.', frames: 1 },
    ],
  });
});

after(async () => {
  await app?.close();
});

async function signIn(page: Page, m: Record<string, string>): Promise<void> {
  await page.goto('/login');
  await logIn(page, EMAIL, PASSWORD, m);
  await page.waitForURL((u) => u.pathname === '/video');
}

/** Nothing on the page is wider than the window (no sideways scrolling). */
const pageOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

for (const { lang, locale } of LOCALES) {
  const m = messages(lang);

  journey(
    `the offline banner is one line at 1280 px and wraps evenly on a phone (${lang})`,
    () => app,
    async (page) => {
      await page.setViewportSize(DESKTOP);
      await signIn(page, m);
      // The signed-in area's code is loaded before the network goes.
      await page.getByText(TITLE).first().waitFor();
      await page.context().setOffline(true);
      const banner = page.getByTestId('offline-banner');
      await banner.getByText(m['pwa.offline']!, { exact: true }).waitFor();
      // One line: as tall as the same banner forbidden to wrap, and that one fits its width.
      const fit = await banner.evaluate((el) => {
        const wrapped = el.getBoundingClientRect().height;
        el.style.whiteSpace = 'nowrap';
        const oneLine = el.getBoundingClientRect().height;
        const overflow = el.scrollWidth - el.clientWidth;
        el.style.whiteSpace = '';
        return { wrapped, oneLine, overflow, text: el.textContent };
      });
      assert.equal(fit.wrapped, fit.oneLine, JSON.stringify(fit));
      assert.ok(fit.overflow <= 0, JSON.stringify(fit));
      assert.equal(fit.text, `${m['pwa.offline']} ${m['pwa.offlineDetail']}`);

      await page.setViewportSize(PHONE);
      await page.waitForFunction(() => window.innerWidth === 390);
      assert.ok((await pageOverflow(page)) <= 0, 'the banner fits a phone');
      await page.context().setOffline(false);
    },
    { locale },
  );

  journey(
    `search result cards on a 390 px phone give the title the card's width (${lang})`,
    () => app,
    async (page) => {
      await signIn(page, m);
      for (const kind of ['videos', 'scenes'] as const) {
        await page.setViewportSize(DESKTOP);
        await page.goto('/advanced-search');
        if (kind === 'scenes') {
          await page.getByRole('tab', { name: m['search.sceneTab']!, exact: true }).click();
        }
        await page.getByLabel(m['search.description']!, { exact: true }).fill('fireworks');
        const submit =
          kind === 'scenes' ? m['search.relevantScenes']! : m['search.relevantVideos']!;
        await page.getByRole('button', { name: submit, exact: true }).click();
        const card = page.getByTestId('result-card').first();
        await card.waitFor();
        const measure = () =>
          card.evaluate((li) => {
            const thumb = li.querySelector('img, [role="img"]')!.getBoundingClientRect();
            const text = (li.lastElementChild as HTMLElement).getBoundingClientRect();
            const box = li.getBoundingClientRect();
            return {
              card: box.width,
              thumb: thumb.width,
              text: text.width,
              below: text.top >= thumb.bottom,
            };
          });
        // On a desktop the thumbnail stays beside the text, 160 px wide.
        const wide = await measure();
        assert.equal(wide.thumb, 160, `${kind} ${JSON.stringify(wide)}`);
        assert.equal(wide.below, false, `${kind} ${JSON.stringify(wide)}`);

        await page.setViewportSize(PHONE);
        await page.waitForFunction(() => window.innerWidth === 390);
        const phone = await measure();
        // The text column had 160 px less than the card: now it has the card's inner width.
        assert.ok(phone.text >= phone.card - 40, `${kind} ${JSON.stringify(phone)}`);
        assert.ok(phone.text >= 300, `${kind} ${JSON.stringify(phone)}`);
        assert.equal(phone.below, true, `${kind} ${JSON.stringify(phone)}`);
        assert.ok((await pageOverflow(page)) <= 0, `${kind}: nothing wider than the phone`);
      }
    },
    { locale },
  );
}
