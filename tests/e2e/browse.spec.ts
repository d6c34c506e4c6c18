// Journeys of issue 5 against a seeded completed video: the list (View More, empty states),
// the detail with scenes and frames, View All, advanced search from a scene with its read-only
// text, the results and back with Change, and the same screens in Japanese.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { startApp, type E2eApp } from './support/app.ts';
import { SCENE_ONE, seedHarbourVideo } from './support/browse.ts';
import { journey } from './support/journey.ts';
import { logIn, messages, waitForPath, where } from './support/ui.ts';

const en = messages('en');
const ja = messages('ja');
const PASSWORD = 'Browse2024pass';
const owner = 'browser@example.com';
const loner = 'loner@example.com';

let app: E2eApp;
let videoId = '';

before(async () => {
  app = await startApp();
  const userId = await app.createUser({ email: owner, password: PASSWORD, team: 'Harbour' });
  await app.createUser({ email: loner, password: PASSWORD, team: 'Empty team' });
  videoId = (await seedHarbourVideo(app, userId)).id;
});

after(async () => {
  await app?.close();
});

async function signIn(page: Page, email: string, m = en): Promise<void> {
  await page.goto('/login');
  await logIn(page, email, PASSWORD, m);
  await waitForPath(page, '/video');
}

journey(
  'the list shows the rows by status, View More opens the tags, a row opens the detail',
  () => app,
  async (page) => {
    await signIn(page, owner);
    const rows = page.getByTestId('video-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 2);
    const failed = page.locator('[data-testid="video-row"][data-status="failed"]');
    await failed.getByText(en['videos.statusFailed']!, { exact: true }).waitFor();
    await failed.getByRole('button', { name: en['videos.retry']! }).waitFor();
    assert.equal(await page.getByText('1 - 2 of 2', { exact: true }).count(), 2);

    const done = page.locator('[data-testid="video-row"][data-status="completed"]');
    const thumbnail = done.getByRole('img', { name: 'Thumbnail of Harbour at dawn' });
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-status="completed"] img');
      return img?.complete && img.naturalWidth > 0;
    });
    // The first rows of a page are in view at once: their thumbnails do not wait (issue 8).
    assert.equal(await thumbnail.getAttribute('loading'), 'eager');

    // The box around the tag list is the one that collapses to about 4rem.
    const tags = done.getByRole('list', { name: en['videos.tags']! }).locator('..');
    const collapsed = (await tags.boundingBox())!.height;
    await done.getByRole('button', { name: en['browse.viewMore']! }).click();
    await done.getByRole('button', { name: en['browse.viewLess']! }).waitFor();
    const expanded = (await tags.boundingBox())!.height;
    assert.ok(collapsed <= 66 && expanded > collapsed + 10, `tags ${collapsed}px -> ${expanded}px`);

    await done.getByText('Harbour at dawn', { exact: true }).click();
    await waitForPath(page, `/video-detail/${videoId}`);
    await page.getByRole('heading', { name: 'Harbour at dawn', level: 1 }).waitFor();
  },
);

journey(
  'the detail shows facts, scenes and six sampled frames; View All shows every frame',
  () => app,
  async (page) => {
    await signIn(page, owner);
    await page.goto(`/video-detail/${videoId}`);
    await page.getByRole('heading', { name: 'Harbour at dawn', level: 1 }).waitFor();
    await page.getByText('2023/07/14', { exact: true }).waitFor();
    await page.getByText('01:02:05', { exact: true }).waitFor();
    const strip = page.getByRole('list', { name: en['detail.scenes']! });
    assert.equal(await strip.getByRole('button').count(), 2);
    await strip.getByText('00:00:00 - 00:00:02').waitFor();

    const frames = page.getByRole('list', { name: en['detail.frames']! }).getByTestId('frame');
    await frames.first().waitFor();
    assert.equal(await frames.count(), 6);
    await page.getByRole('link', { name: en['detail.viewAllFrames']! }).click();
    await waitForPath(page, `/video-detail/${videoId}/scene/0/frames`);
    await page.getByRole('heading', { name: 'Frames of scene #0' }).waitFor();
    assert.equal(await page.getByTestId('frame').count(), 8);
    await page.getByRole('button', { name: en['detail.back']! }).click();
    await waitForPath(page, `/video-detail/${videoId}?sceneIndex=0`);

    await page.getByRole('button', { name: en['detail.watchFullVideo']! }).click();
    const player = page.getByRole('dialog').locator('video');
    await player.waitFor();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
  },
);

journey(
  'advanced search from a scene: read-only text, results, and back with Change',
  () => app,
  async (page) => {
    await signIn(page, owner);
    await page.goto(`/video-detail/${videoId}?sceneIndex=1`);
    await page.getByTestId('scene-description').getByText(SCENE_ONE).waitFor();
    await page.getByRole('button', { name: en['detail.searchSimilarScenes']! }).click();
    await waitForPath(
      page,
      `/advanced-search/${videoId}?sceneIndex=1&video=false&kValue=10&searchMethod=hybrid`,
    );

    const text = page.getByLabel(en['search.description']!, { exact: true });
    await page.waitForFunction((t) => document.querySelector('textarea')?.value === t, SCENE_ONE);
    assert.equal(await text.getAttribute('readonly'), '');
    await page.getByRole('button', { name: en['search.similarScenes']! }).click();
    const query = `sceneIndex=1&searchScope=all&video=false&kValue=10&searchMethod=hybrid`;
    await waitForPath(page, `/video/similar/${videoId}?${query}`);
    await page.getByRole('heading', { name: 'Top 10 Picks' }).waitFor();
    // The scene itself is left out; the other scene of the video is the one result.
    const card = page.getByTestId('result-card');
    await card.first().waitFor();
    assert.equal(await card.count(), 1);
    await card.getByRole('link', { name: 'Scene #0 from Harbour at dawn' }).waitFor();

    await page.getByRole('link', { name: en['results.change']! }).click();
    await waitForPath(page, `/advanced-search/${videoId}?${query}`);
    const tab = page.getByRole('tab', { name: en['search.sceneTab']! });
    assert.equal(await tab.getAttribute('aria-selected'), 'true');
    await page.getByRole('link', { name: en['search.backToVideo']! }).click();
    await waitForPath(page, `/video-detail/${videoId}?sceneIndex=1`);
  },
);

journey(
  'empty states: no videos yet, no matching tags, no matching scenes',
  () => app,
  async (page) => {
    await signIn(page, loner);
    await page.getByText(en['videos.emptyTitle']!, { exact: true }).waitFor();
    await page.getByText(en['videos.emptyDescription']!, { exact: true }).waitFor();
    await page
      .getByRole('button', { name: /log ?out/i })
      .first()
      .click();
    await waitForPath(page, '/login');

    await logIn(page, owner, PASSWORD);
    await waitForPath(page, '/video');
    const box = page.getByRole('searchbox', { name: en['videos.searchTags']! });
    await box.fill('no such tag');
    await box.press('Enter');
    await page.getByText(en['videos.noMatchTitle']!, { exact: true }).waitFor();
    await page.getByText(en['videos.noMatchDescription']!, { exact: true }).waitFor();
    assert.match(where(page), /tags=no%20such%20tag/);

    await page.goto('/video/similar?video=false&kValue=5&description=zeppelin&searchMethod=sparse');
    await page.getByText(en['results.noMatchingScenes']!, { exact: true }).waitFor();
  },
);

journey(
  'the browse screens in Japanese',
  () => app,
  async (page) => {
    await signIn(page, owner, ja);
    await page.getByRole('heading', { name: ja['videos.title']!, level: 1 }).waitFor();
    await page.getByRole('button', { name: ja['videos.refresh']! }).waitFor();
    await page.getByText(ja['videos.statusFailed']!, { exact: true }).waitFor();
    await page.getByText('1 - 2 / 2件', { exact: true }).first().waitFor();
    await page.goto(`/video-detail/${videoId}`);
    await page.getByRole('button', { name: ja['detail.searchSimilarVideo']! }).waitFor();
    await page.getByText(ja['detail.originalDate']!, { exact: true }).waitFor();
    await page.goto(`/advanced-search/${videoId}`);
    await page.getByRole('tab', { name: ja['search.sceneTab']! }).waitFor();
    await page.getByRole('button', { name: ja['search.similarVideos']! }).waitFor();
  },
  { locale: 'ja-JP' },
);
