// People across the archive (issue 30) in Chromium against the real server: two short videos of
// the same unnamed man (cut from the real recording of Franck in tests/support/face-photos.ts)
// are analysed by the real pipeline, which groups his faces; the user opens People, names the
// group, finds the name through scene search and opens the scene. The videos are one scene each,
// so the analysis takes seconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { analyseFile } from '../support/analyse-file.ts';
import { FRANCK_VIDEO, makeFaceVideo } from '../support/face-photos.ts';
import { teamOf } from '../support/seed.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, messages } from './support/ui.ts';

const m = messages('en');
const EMAIL = 'people@example.com';
const PASSWORD = 'People2024pass';
const NAME = 'Franck Dupontel';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-e2e-people-'));

let app: E2eApp;
const videoIds: string[] = [];

before(async () => {
  app = await startApp();
  const ownerId = await app.createUser({ email: EMAIL, password: PASSWORD, team: 'Face team' });
  const teamId = await teamOf(app.running.ctx, ownerId);
  for (const [name, fromSec] of [
    ['first', 10],
    ['second', 30],
  ] as const) {
    const file = await makeFaceVideo(
      [{ video: FRANCK_VIDEO, fromSec, seconds: 2 }],
      path.join(tmp, `${name}.mp4`),
    );
    const filename = `${name}.mp4`;
    const opts = { teamId, ownerId, file, filename, language: 'en', timeoutMs: 120_000 };
    videoIds.push(await analyseFile(app.running.ctx, opts));
  }
});

after(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

journey(
  'a group of faces named on People is found by the name, and its scene opens',
  () => app,
  async (page) => {
    await page.goto('/login');
    await logIn(page, EMAIL, PASSWORD);
    await page.getByRole('link', { name: m['nav.people']!, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: m['people.title']! }).waitFor();

    const group = page.getByTestId('face-group');
    await group.getByText('2 videos · 2 scenes').waitFor();
    await group.getByRole('combobox', { name: m['people.nameLabel']! }).fill(NAME);
    await group.getByRole('button', { name: m['people.save']!, exact: true }).click();
    await page.getByTestId('named-person').getByText(NAME, { exact: true }).waitFor();
    await page.getByText(m['people.emptyGroupsTitle']!, { exact: true }).waitFor();

    await page.getByRole('link', { name: m['nav.advancedSearch']!, exact: true }).click();
    await page.getByRole('tab', { name: m['search.sceneTab']!, exact: true }).click();
    await page.getByLabel(m['search.description']!, { exact: true }).fill('Dupontel');
    await page.getByRole('button', { name: m['search.relevantScenes']!, exact: true }).click();
    const hit = page.getByTestId('result-card').first();
    await hit.waitFor();
    await hit.getByRole('link', { name: /^Scene #0 from / }).click();
    await page.waitForURL(
      (u) =>
        videoIds.includes(u.pathname.split('/')[2] ?? '') &&
        u.pathname.startsWith('/video-detail/') &&
        u.searchParams.get('sceneIndex') === '0',
    );
    await page.getByRole('heading', { name: 'Scene #0', exact: true }).waitFor();
  },
);
