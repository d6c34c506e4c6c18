// Issue 42: an archive, not a file. A user chooses a folder of 12 files in the upload dialog: nine
// new clips, one the archive already has (the same bytes under another name), a text file and an
// image. The dialog lists the two refusals and the duplicate in words; Upload queues the nine as
// one batch. The page is reloaded in the middle of the batch, then goes offline and back. The end:
// the nine are in the archive, each exactly once, and the batch panel still says what became of
// the other three.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { makeVideo } from '../support/media.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, waitForPath } from './support/ui.ts';
import { chooseFolderInDialog, paddedVideo, uploadThroughDialog } from './support/upload-dialog.ts';

const email = 'archivist@example.com';
const password = 'Archive2024pass';
const NEW_CLIPS = 9;
const KB = 1024;

let app: E2eApp;
let workDir: string;
let folder: string;
let inArchive: string;

before(async () => {
  app = await startApp();
  await app.createUser({ email, password });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-e2e-batch-'));
  const clip = await makeVideo({ segments: [{ source: 'testsrc', seconds: 2 }], fps: 10 });
  const base = fs.statSync(clip.file).size;
  // Distinct files (random padding) of distinct sizes, all readable as the same 2 s clip.
  inArchive = paddedVideo(clip.file, path.join(workDir, 'harbour.mp4'), base + 40 * KB);
  folder = path.join(workDir, 'summer');
  fs.mkdirSync(path.join(folder, 'day 2'), { recursive: true });
  for (let i = 0; i < NEW_CLIPS; i += 1) {
    const sub = i < 5 ? folder : path.join(folder, 'day 2');
    paddedVideo(clip.file, path.join(sub, `clip-${i}.mp4`), base + (i + 1) * KB);
  }
  fs.copyFileSync(inArchive, path.join(folder, 'harbour-copy.mp4'));
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'shot list');
  fs.writeFileSync(path.join(folder, 'day 2', 'cover.jpg'), Buffer.alloc(300, 1));
});

after(async () => {
  await app?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

async function videosNamed(name: string): Promise<number> {
  const rows = await app.running.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM videos WHERE filename = $1 AND status <> 'uploading'`,
    [name],
  );
  return rows[0]?.n ?? 0;
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

journey(
  'a folder of 12 files: nine new clips uploaded once each across a reload and an offline spell',
  () => app,
  async (page) => {
    await page.goto('/login');
    await logIn(page, email, password);
    await waitForPath(page, '/video');
    await uploadThroughDialog(page, inArchive, { duration: '00:00:02' });
    await waitFor(async () => (await videosNamed('harbour.mp4')) === 1, 'the first upload');

    await chooseFolderInDialog(page, folder, 'The summer archive');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('12 files chosen: 9 to upload, 3 left out', { exact: true }).waitFor();
    const row = (name: string) => dialog.locator(`[data-chosen-file$="${name}"]`);
    await row('harbour-copy.mp4').getByText('Already in the archive as').waitFor();
    for (const name of ['notes.txt', 'cover.jpg'])
      await row(name).getByText('Left out: not an MP4, M4V or MOV video.').waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const panel = page.locator('[data-upload-batch]');
    await panel.waitFor();
    // The middle of the batch: some clips sent, some not.
    await waitFor(async () => (await videosNamed('clip-1.mp4')) === 1, 'the batch under way');
    await page.reload();
    await panel.waitFor();
    await page.context().setOffline(true);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await page.context().setOffline(false);

    const names = Array.from({ length: NEW_CLIPS }, (_, i) => `clip-${i}.mp4`);
    await waitFor(
      async () => (await Promise.all(names.map(videosNamed))).every((n) => n >= 1),
      'all nine clips on the server',
      180_000,
    );
    for (const name of names) assert.equal(await videosNamed(name), 1, `${name} once`);
    assert.equal(await videosNamed('harbour-copy.mp4'), 0, 'the duplicate was not uploaded');
    assert.equal(await videosNamed('harbour.mp4'), 1);

    await page
      .getByTestId('batch-counts')
      .getByText(/^0 waiting · 0 uploading/)
      .waitFor({
        timeout: 60_000,
      });
    await panel.getByText('3 left out', { exact: false }).waitFor();
    await panel.getByRole('button', { name: 'Show files', exact: true }).click();
    const file = (name: string) => panel.locator(`[data-batch-file$="${name}"]`);
    await file('harbour-copy.mp4').getByText('Already in the archive as harbour').waitFor();
    assert.equal(await file('notes.txt').getAttribute('data-batch-state'), 'left-out');
  },
  { timeoutMs: 360_000 },
);
