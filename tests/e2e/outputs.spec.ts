// Journeys of issue 6 in Chromium against a seeded completed video whose file is a real 4 s
// H.264/AAC video: make a report and open it in a new tab (signed link, no token); make a
// trailer and play it in the player.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { makeVideo } from '../support/media.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, messages, waitForPath } from './support/ui.ts';

const en = messages('en');
const PASSWORD = 'Outputs2024pass';
const owner = 'outputs@example.com';
/** Jobs run in the server's worker; the page polls the video while they run. */
const JOB_TIMEOUT_MS = 120_000;

let app: E2eApp;
let videoId = '';

before(async () => {
  app = await startApp();
  const userId = await app.createUser({ email: owner, password: PASSWORD, team: 'Harbour' });
  const ctx = app.running.ctx;
  const seeded = await seedCompletedVideo(ctx, {
    teamId: await teamOf(ctx, userId),
    ownerId: userId,
    title: 'Harbour at dawn',
    videoLength: 4,
    scenes: [
      { description: 'A red fishing boat leaves the harbour.', captions: 'There it goes' },
      { description: 'Colour bars of a test signal.' },
    ],
  });
  const source = await makeVideo({
    segments: [
      { source: 'color=c=red', seconds: 2 },
      { source: 'smptebars', seconds: 2 },
    ],
    silentAudio: true,
  });
  await ctx.storage.put(seeded.keys.source, fs.readFileSync(source.file), 'video/mp4');
  videoId = seeded.id;
});

after(async () => {
  await app?.close();
});

async function openDetail(page: Page): Promise<void> {
  await page.goto('/login');
  await logIn(page, owner, PASSWORD);
  await waitForPath(page, '/video');
  await page.goto(`/video-detail/${videoId}`);
  await page.getByRole('heading', { name: 'Harbour at dawn', level: 1 }).waitFor();
}

async function ask(page: Page, button: string, submit: string, instruction: string) {
  const area = page.getByTestId('outputs-area');
  await area.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  const create = dialog.getByRole('button', { name: submit, exact: true });
  assert.equal(await create.isDisabled(), true, 'submit is disabled while empty');
  await dialog.getByRole('textbox', { name: en['outputs.instruction']! }).fill(instruction);
  await create.click();
  await dialog.waitFor({ state: 'detached' });
}

journey(
  'make a report and open it in a new tab',
  () => app,
  async (page) => {
    await openDetail(page);
    await ask(
      page,
      en['outputs.makeReport']!,
      en['outputs.createReport']!,
      'Where is the red boat?',
    );
    const open = page
      .getByTestId('outputs-area')
      .getByRole('link', { name: en['detail.openReport']!, exact: true });
    await open.waitFor({ timeout: JOB_TIMEOUT_MS });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    await tab.waitForLoadState();
    await tab.getByRole('heading', { name: 'Harbour at dawn', level: 1 }).waitFor();
    await tab.getByText('Where is the red boat?', { exact: true }).waitFor();
    await tab.getByText('One scene matches this instruction', { exact: false }).waitFor();
    const images = await tab.evaluate(() =>
      [...document.images].map((img) => img.complete && img.naturalWidth > 0),
    );
    assert.ok(images.length >= 2 && images.every(Boolean), `report images ${String(images)}`);
    await tab.close();
  },
  { timeoutMs: 240_000 },
);

journey(
  'make a trailer and play it',
  () => app,
  async (page) => {
    await openDetail(page);
    await ask(page, en['outputs.makeTrailer']!, en['outputs.createTrailer']!, 'the red boat');
    const watch = page
      .getByTestId('outputs-area')
      .getByRole('button', { name: en['detail.watchTrailer']!, exact: true });
    await watch.waitFor({ timeout: JOB_TIMEOUT_MS });
    await watch.click();
    await page.waitForFunction(() => {
      const video = document.querySelector<HTMLVideoElement>('[role="dialog"] video');
      return video !== null && video.readyState >= 2 && video.duration > 0;
    });
    const duration = await page.evaluate(
      () => document.querySelector<HTMLVideoElement>('[role="dialog"] video')!.duration,
    );
    assert.ok(duration > 0.5 && duration <= 4, `trailer lasts ${duration} s`);
    // It plays: the player starts it and its time moves on (Chromium decodes the H.264/AAC file).
    await page.waitForFunction(() => {
      const video = document.querySelector<HTMLVideoElement>('[role="dialog"] video')!;
      return video.error === null && (video.currentTime > 0.5 || video.ended);
    });
  },
  { timeoutMs: 240_000 },
);
