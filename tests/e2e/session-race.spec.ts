// Sessions under concurrency (issue 14 section 1), in Chromium with the service worker in control:
// with an upload queued, the page is reloaded twice quickly and a second tab opens, so the two
// page loads, the second tab and the worker's queue all renew one token at once. The user stays
// signed in everywhere, the upload completes exactly once, and no refresh was taken for theft.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { makeVideo } from '../support/media.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { languagesOnDevice, signInControlled } from './support/service-worker.ts';
import { messages } from './support/ui.ts';
import { distinctCopy, uploadThroughDialog } from './support/upload-dialog.ts';

const m = messages('en');
const PASSWORD = 'RacingPass123';
const EMAIL = 'rena@example.com';
let app: E2eApp;
let clip: string;

before(async () => {
  clip = (await makeVideo({ segments: [{ source: 'testsrc', seconds: 3 }], fps: 10 })).file;
  app = await startApp();
  const id = await app.createUser({ email: EMAIL, password: PASSWORD, team: 'Racers' });
  // signInControlled waits for a row of the list.
  const teamId = await teamOf(app.running.ctx, id);
  await seedCompletedVideo(app.running.ctx, { teamId, ownerId: id, title: 'Warm-up lap' });
});

after(async () => {
  await app?.close();
});

const videosNamed = async (name: string) =>
  (
    await app.running.ctx.db.query<{ status: string }>(
      'SELECT status FROM videos WHERE filename = $1',
      [name],
    )
  ).map((v) => v.status);

/** Within a minute the server has the video once, and past its upload (the status call made). */
async function uploadedOnce(name: string): Promise<void> {
  const until = Date.now() + 60_000;
  while ((await videosNamed(name)).every((s) => s === 'uploading') && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 250));
  const statuses = await videosNamed(name);
  assert.equal(statuses.length, 1, `videos named ${name}`);
  assert.notEqual(statuses[0], 'uploading', 'the upload reached the server');
}

/** On the signed-in video list (not sent to Login), with the list drawn. */
async function signedInOnList(page: Page): Promise<void> {
  await page.waitForURL((u) => u.pathname === '/video');
  await page.getByRole('list', { name: m['videos.listLabel']!, exact: true }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/video', 'still signed in');
}

journey(
  'two quick reloads and a second tab, with an upload queued: signed in, uploaded once',
  () => app,
  async (page) => {
    await signInControlled(page, EMAIL, PASSWORD);
    await languagesOnDevice(page);
    // Queued while offline, so it is still waiting when the reloads come.
    await page.context().setOffline(true);
    await page.getByText(m['pwa.offline']!).waitFor();
    const name = 'racing-refresh.mp4';
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'va-race-upload-')), name);
    distinctCopy(clip, file);
    try {
      await uploadThroughDialog(page, file, { about: 'Relay', duration: '00:00:03' });
      await page.locator('[data-upload-state="offline"]', { hasText: name }).first().waitFor();
      await page.context().setOffline(false);

      // Every page load renews the token; so does the worker when its upload request is refused.
      // The second reload waits for the first page's document: sent at 'commit', it sometimes
      // reached a frame Chromium was swapping out ("Not attached to an active page").
      const loads = page.reload({ waitUntil: 'domcontentloaded' }).then(() => page.reload());
      const second = await page.context().newPage();
      await Promise.all([loads, second.goto('/video')]);
      await signedInOnList(page);
      await signedInOnList(second);

      await uploadedOnce(name);
      await page.waitForFunction(() => !document.querySelector('[data-upload-job]'));

      // Still signed in after all of it, in both tabs, and with one session family alive.
      await page.reload();
      await signedInOnList(page);
      await second.reload();
      await signedInOnList(second);
      const families = await app.running.ctx.db.query<{ n: number }>(
        `SELECT count(DISTINCT family_id)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE u.email = $1 AND s.revoked_at IS NULL`,
        [EMAIL],
      );
      assert.equal(families[0]?.n, 1, 'one live sign-in, none revoked as stolen');
      await second.close();
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  },
  { timeoutMs: 180_000 },
);

journey(
  'a video queued from a second tab after a reload of the first is uploaded by the worker',
  () => app,
  async (page) => {
    await signInControlled(page, EMAIL, PASSWORD);
    await page.reload();
    await signedInOnList(page);
    const second = await page.context().newPage();
    await second.goto('/video');
    await signedInOnList(second);
    await second.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const name = 'second-tab.mp4';
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'va-second-tab-')), name);
    distinctCopy(clip, file);
    try {
      // Below the multipart threshold: the worker sends it as one signed form.
      await uploadThroughDialog(second, file, { about: 'From tab two', duration: '00:00:03' });
      await uploadedOnce(name);
      await second.close();
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  },
  { timeoutMs: 180_000 },
);
