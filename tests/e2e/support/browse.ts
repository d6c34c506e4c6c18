// Data and measurements for the browse journeys: a seeded team with completed videos (real
// thumbnails, scenes, frames and clips from tests/support/seed.ts) and Chromium's long tasks.
import type { Page } from 'playwright-core';
import { seedCompletedVideo, teamOf, type SeededVideo } from '../../support/seed.ts';
import type { E2eApp } from './app.ts';

export const MANY_TAGS = Array.from({ length: 24 }, (_, i) => `harbour tag ${i + 1}`);

export const SCENE_ONE =
  'A red fishing boat leaves the harbour at dawn while gulls circle above the old stone pier ' +
  'and a man waves from the quay.';

/** One completed video with two scenes (8 frames, then 3) and many tags; one failed upload. */
export async function seedHarbourVideo(app: E2eApp, userId: string): Promise<SeededVideo> {
  const ctx = app.running.ctx;
  const teamId = await teamOf(ctx, userId);
  await seedCompletedVideo(ctx, {
    teamId,
    ownerId: userId,
    filename: 'broken-upload.mp4',
    status: 'failed',
    createdAt: new Date(Date.now() - 60_000),
  });
  return seedCompletedVideo(ctx, {
    teamId,
    ownerId: userId,
    filename: 'harbour.mp4',
    title: 'Harbour at dawn',
    summary: 'Boats leave a small harbour at dawn; gulls, a pier and a waving man.',
    tags: MANY_TAGS,
    videoDate: '2023-07-14T06:30:00.000',
    videoLength: 3725,
    scenes: [
      { description: 'Wide shot of the quiet harbour before sunrise.', frames: 8 },
      { description: SCENE_ONE, frames: 3 },
    ],
  });
}

/** `count` completed videos with thumbnails and a few tags each (no search index). */
export async function seedManyVideos(app: E2eApp, userId: string, count: number): Promise<void> {
  const ctx = app.running.ctx;
  const teamId = await teamOf(ctx, userId);
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    await seedCompletedVideo(ctx, {
      teamId,
      ownerId: userId,
      filename: `archive-${i}.mp4`,
      title: `Archive reel ${i + 1}`,
      tags: ['archive', `reel ${i + 1}`, 'city', 'night', 'people', 'street'],
      createdAt: new Date(now - i * 1000),
      index: false,
    });
  }
}

/** Starts recording long tasks in every document the page opens from now on. */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** Forgets the long tasks recorded so far (e.g. loading the app) before the measured step. */
export async function resetLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks = [];
  });
}

/** The longest task recorded since the last reset, in ms (0 when none went over 50 ms). */
export async function longestTask(page: Page): Promise<number> {
  const tasks = await page.evaluate(
    () => (window as unknown as { __longTasks: number[] }).__longTasks,
  );
  return tasks.length === 0 ? 0 : Math.max(...tasks);
}

/**
 * Waits for `rows` rows and for every thumbnail in view to have loaded or failed (lazy ones
 * below the fold load only when scrolled to).
 */
export async function waitForListImages(page: Page, rows: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const items = document.querySelectorAll('[data-testid="video-row"]');
      if (items.length !== n) return false;
      return [...document.querySelectorAll('[data-testid="video-row"] img')]
        .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
        .every((img) => (img as HTMLImageElement).complete);
    },
    rows,
    { timeout: 30_000 },
  );
}
