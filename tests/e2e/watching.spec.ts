// Watching and finding the moment (issue 29) in Chromium against the real server: the poster
// before play, the captions track and its cues, a chapter that seeks, axe on the open player; a
// search for a word on screen that opens its scene and plays it; a download that reads back; and
// the detail with its transcript, chips and captions track reopened offline. The video is seeded
// (real media files, the captions track and the perceive step's record as the pipeline writes
// them) so each journey takes seconds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { indexVideo } from '../../server/src/search/index-video.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { ROOT } from './support/paths.ts';
import { copyOfWebBuild, signInControlled } from './support/service-worker.ts';
import { logIn, messages, waitForAsync } from './support/ui.ts';

const m = messages('en');
const EMAIL = 'watcher@example.com';
const PASSWORD = 'Watching2024pass';
const TITLE = 'Lighthouse walk';
const CUES = [
  { start_time: '00:00:00.100', end_time: '00:00:00.900', text: 'Welcome to the coast' },
  { start_time: '00:00:01.000', end_time: '00:00:01.900', text: 'Here is the old tower' },
];
const VTT =
  'WEBVTT\n\n00:00:00.100 --> 00:00:00.900\nWelcome to the coast\n\n' +
  '00:00:01.000 --> 00:00:01.900\nHere is the old tower\n';
const AXE_SOURCE = fs.readFileSync(
  path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'),
  'utf8',
);

let app: E2eApp;
let webRoot: string;
let videoId: string;

before(async () => {
  webRoot = copyOfWebBuild('watching');
  app = await startApp({ webRoot });
  const userId = await app.createUser({ email: EMAIL, password: PASSWORD, team: 'Coast team' });
  const ctx = app.running.ctx;
  const teamId = await teamOf(ctx, userId);
  // The seeded clip lasts 2 s: two scenes of a second each.
  videoId = (
    await seedCompletedVideo(ctx, {
      teamId,
      ownerId: userId,
      filename: 'lighthouse.mp4',
      title: TITLE,
      videoLength: 2,
      captions: CUES,
      index: false,
      scenes: [
        { description: 'A path along the cliffs.', startMs: 0, endMs: 1000, frames: 1 },
        { description: 'A door by the tower.', startMs: 1000, endMs: 2000, frames: 1 },
      ],
    })
  ).id;
  // What the captions and perceive steps record: the track, and per scene objects and screen text.
  const vttKey = `output/${videoId}/captions.vtt`;
  await ctx.storage.put(vttKey, Buffer.from(VTT, 'utf8'), 'text/vtt');
  await ctx.db.query(`UPDATE videos SET output_data = output_data || $2::jsonb WHERE id = $1`, [
    videoId,
    JSON.stringify({
      captions_key: vttKey,
      captions_language: 'en',
      captions_source: 'embedded',
      captions_transcription: false,
    }),
  ]);
  await ctx.db.query(
    `INSERT INTO pipeline_steps (video_id, step, data) VALUES ($1, 'perceive', $2::jsonb)`,
    [
      videoId,
      JSON.stringify({
        scenes: [{ objects: ['person'] }, { objects: ['boat', 'bench'] }],
        screenText: [[], [{ text: 'LIGHTHOUSE 7' }]],
      }),
    ],
  );
  await indexVideo(ctx, videoId);
});

after(async () => {
  await app?.close();
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await logIn(page, EMAIL, PASSWORD);
  await page.waitForURL((u) => u.pathname === '/video');
}

/** Signs in and runs an Advanced search for these words, of videos or of scenes. */
async function searchFor(page: Page, words: string, kind: 'videos' | 'scenes'): Promise<void> {
  await signIn(page);
  await page.goto('/advanced-search');
  if (kind === 'scenes') {
    await page.getByRole('tab', { name: m['search.sceneTab']!, exact: true }).click();
  }
  await page.getByLabel(m['search.description']!, { exact: true }).fill(words);
  const button = kind === 'scenes' ? m['search.relevantScenes']! : m['search.relevantVideos']!;
  await page.getByRole('button', { name: button, exact: true }).click();
}

/** The content type a same-origin URL answers with, fetched from the page. */
const contentType = (page: Page, url: string): Promise<string | null> =>
  page.evaluate((u) => fetch(u).then((r) => r.headers.get('content-type')), url);

/** What axe finds serious or critical on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: Document) => Promise<unknown> } }).axe;
    const result = (await axe.run(document)) as {
      violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
    };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
  });
}

journey(
  'the poster shows before play; the full player loads its captions and a chapter seeks it',
  () => app,
  async (page) => {
    await signIn(page);
    await page.goto(`/video-detail/${videoId}`);
    const clip = page.getByTestId('scene-clip');
    const poster = (await clip.getAttribute('poster')) ?? '';
    assert.match(poster, new RegExp(`/assets/data/output/${videoId}/scenes/0/thumbnail\\.jpg\\?`));
    assert.equal(await clip.evaluate((v: HTMLVideoElement) => v.paused), true);
    assert.equal(await contentType(page, poster), 'image/jpeg');
    await page.getByRole('button', { name: m['detail.watchFullVideo']!, exact: true }).click();
    const dialog = page.getByRole('dialog');
    const video = dialog.getByTestId('full-video');
    assert.match((await video.getAttribute('poster')) ?? '', /\/thumbnail\.jpg\?/);
    // The default captions track is showing and its cues are the analysis's.
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="full-video"]');
      return (v?.textTracks[0]?.cues?.length ?? 0) === 2;
    });
    const cues = await video.evaluate((v: HTMLVideoElement) => ({
      mode: v.textTracks[0]!.mode,
      label: v.textTracks[0]!.label,
      texts: [...v.textTracks[0]!.cues!].map((c) => (c as VTTCue).text),
    }));
    assert.deepEqual(cues, {
      mode: 'showing',
      label: 'English',
      texts: ['Welcome to the coast', 'Here is the old tower'],
    });

    await video.evaluate((v: HTMLVideoElement) => v.pause());
    const second = dialog.getByRole('button', { name: 'Scene #1, 0:01 to 0:02', exact: true });
    await second.click();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="full-video"]') as HTMLVideoElement).currentTime >= 1,
    );
    assert.equal(await second.getAttribute('aria-current'), 'true');
    // axe: nothing serious or critical on the detail page with the player open.
    assert.deepEqual(await seriousViolations(page), []);
  },
);

journey(
  'a search for a word on screen opens the hit at its scene and plays it',
  () => app,
  async (page) => {
    await searchFor(page, 'lighthouse', 'scenes');
    const card = page.getByTestId('result-card').first();
    await card.getByText('On screen: “LIGHTHOUSE 7”').waitFor();
    await card.getByRole('link', { name: `Scene #1 from ${TITLE}` }).click();
    await page.waitForURL(
      (u) => u.pathname === `/video-detail/${videoId}` && u.searchParams.get('sceneIndex') === '1',
    );
    await page.getByRole('heading', { name: 'Scene #1', exact: true }).waitFor();
    await page.waitForFunction(() => {
      const clip = document.querySelector<HTMLVideoElement>('[data-testid="scene-clip"]');
      return clip !== null && clip.src.includes('/scenes/1/') && clip.currentTime > 0;
    });
  },
);

journey(
  'a video hit marks the matched words inside its title, which reads as one line of text',
  () => app,
  async (page) => {
    await searchFor(page, 'lighthouse', 'videos');
    const link = page.getByTestId('result-card').first().getByRole('link', { name: TITLE });
    assert.equal(await link.locator('mark').innerText(), 'Lighthouse');
    // Marks laid out as flex items of the link broke the title into columns ("Lighthouse\nwalk").
    assert.equal(await link.innerText(), TITLE);
  },
);

journey(
  'the downloads close on Escape or a click outside, and a download is a well-formed file',
  () => app,
  async (page) => {
    await signIn(page);
    // On a phone the button wraps to the left under the title: the menu must open on screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/video-detail/${videoId}`);
    const button = page.getByRole('button', { name: m['downloads.title']!, exact: true });
    const list = page.getByTestId('downloads').getByRole('list');
    await button.click();
    const menu = await list.boundingBox();
    assert.ok(menu && menu.x >= 0 && menu.x + menu.width <= 390, JSON.stringify(menu));
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await seriousViolations(page), []);

    // Escape closes the open list and gives the focus back to its button, by keyboard too.
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      m['downloads.captionsVtt'],
    );
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    assert.equal(await button.evaluate((b) => b === document.activeElement), true);
    await page.keyboard.press('Enter');
    await list.waitFor();
    // A click anywhere else closes it.
    await page.getByRole('heading', { name: TITLE, exact: true }).click();
    await list.waitFor({ state: 'detached' });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');

    // Choosing a file downloads it and closes the list.
    const read = async (label: string) => {
      await button.click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: label, exact: true }).click(),
      ]);
      await list.waitFor({ state: 'detached' });
      const file = await download.path();
      return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
    };
    const csv = await read(m['downloads.scenesCsv']!);
    assert.equal(csv.name, `${TITLE}.csv`);
    const rows = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    assert.equal(rows[0], 'index,start,end,description,people,objects,screen_text');
    assert.equal(rows.length, 3);
    assert.match(rows[2]!, /LIGHTHOUSE 7/);
    const vtt = await read(m['downloads.captionsVtt']!);
    assert.equal(vtt.name, `${TITLE}.vtt`);
    assert.match(vtt.text, /^WEBVTT/);
    assert.match(vtt.text, /Here is the old tower/);
  },
);

journey(
  'a detail seen online reopens offline with its transcript, chips and captions track',
  () => app,
  async (page) => {
    await signInControlled(page, EMAIL, PASSWORD);
    await page.goto(`/video-detail/${videoId}?sceneIndex=1`);
    await page.getByTestId('transcript').getByText('Here is the old tower').waitFor();
    await page.getByTestId('scene-chips').getByText('Boat').waitFor();
    // Opening the player fetches the captions track through the service worker.
    await page.getByRole('button', { name: m['detail.watchFullVideo']!, exact: true }).click();
    const track = (await page.locator('track').getAttribute('src')) ?? '';
    await waitForAsync(
      page,
      `caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith('images-'))
        .map((n) => caches.open(n).then((c) => c.match(${JSON.stringify(track)}, { ignoreSearch: true })))))
        .then((hits) => hits.some(Boolean))`,
      'the captions track in the offline cache',
    );
    await waitForAsync(
      page,
      `caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith('api-'))
        .map((n) => caches.open(n).then((c) => c.keys()))))
        .then((lists) => lists.flat().some((r) => new URL(r.url).pathname === '/api/videos/${videoId}'))`,
      'the detail in the offline cache',
    );

    await page.context().setOffline(true);
    await page.reload();
    await page.getByText(m['pwa.offline']!).waitFor();
    await page.getByTestId('transcript').getByText('Here is the old tower').waitFor();
    await page.getByTestId('scene-chips').getByText('LIGHTHOUSE 7').waitFor();
    const answer = await page.evaluate(
      (u) => fetch(u).then(async (r) => [r.status, await r.text()]),
      track,
    );
    assert.equal(answer[0], 200);
    assert.match(String(answer[1]), /^WEBVTT/);
  },
  { timeoutMs: 150_000 },
);
