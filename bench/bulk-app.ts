// An archive through the app (issue 42): 500 small clips chosen as one folder in the upload
// dialog of the production build in Debian's Chromium, against the real server (analysis off:
// the uploads are measured, not the analysis). Printed:
// - the longest main-thread task while the 500 durations are probed (bar: 200 ms CPU);
// - the batch: 500 files queued, the network dropped for 5 s once a fifth are videos and the page
//   reloaded at half; every file must end as exactly one video, none lost;
// - the same folder chosen again: how many the dialog would upload (bar: 0, every file reported
//   as already in the archive) and how long the check took.
//   npm run bench -- bulk          (BULK_FILES=40 for a quick look)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { longestTaskCpu, markStart } from './_long-tasks.ts';
import { BENCH_EMAIL, BENCH_PASSWORD, ensureBenchBuild, signIn } from './_pwa.ts';
import { makeVideo } from '../tests/support/media.ts';
import { startApp, type E2eApp } from '../tests/e2e/support/app.ts';
import {
  chooseFolderInDialog,
  paddedVideo,
  waitForUploadEnabled,
} from '../tests/e2e/support/upload-dialog.ts';

const FILES = Number(process.env.BULK_FILES ?? 500);
const LONG_TASK_BAR_MS = 200;

async function serverVideos(app: E2eApp): Promise<Map<string, number>> {
  const rows = await app.running.ctx.db.query<{ filename: string; n: number }>(
    `SELECT filename, count(*)::int AS n FROM videos WHERE status <> 'uploading' GROUP BY filename`,
  );
  return new Map(rows.map((r) => [r.filename, r.n]));
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

export async function main(): Promise<{ ok: boolean }> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-bulk-'));
  const folder = path.join(workDir, 'archive');
  fs.mkdirSync(folder);
  const clip = await makeVideo({
    segments: [{ source: 'testsrc', seconds: 1 }],
    fps: 5,
    width: 160,
    height: 90,
  });
  const base = fs.statSync(clip.file).size;
  for (let i = 0; i < FILES; i += 1)
    paddedVideo(
      clip.file,
      path.join(folder, `clip-${String(i).padStart(3, '0')}.mp4`),
      base + 64 + i * 16,
    );
  const app = await startApp({ webRoot: ensureBenchBuild(), worker: 'off' });
  let ok = true;
  try {
    await app.createUser({ email: BENCH_EMAIL, password: BENCH_PASSWORD });
    const page = await app.newPage();
    page.setDefaultTimeout(120_000);
    await signIn(page, app);

    // 1. Choosing 500 files: the durations are probed while the page stays responsive.
    await app.browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    });
    await markStart(page);
    const chosenAt = Date.now();
    await chooseFolderInDialog(page, folder, 'Bulk bench');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`${FILES} files chosen: ${FILES} to upload, 0 left out`).waitFor();
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
    await waitForUploadEnabled(page, 300_000);
    const probedMs = Date.now() - chosenAt;
    const longest = longestTaskCpu(await app.browser.stopTracing());
    console.log(
      `${FILES} durations probed and checked: ${(probedMs / 1000).toFixed(1)} s; longest task ${longest.toFixed(0)} ms CPU (bar ${LONG_TASK_BAR_MS})`,
    );
    if (longest > LONG_TASK_BAR_MS) ok = false;

    // 2. The batch, with the network dropped and a reload on the way.
    const startedAt = Date.now();
    await upload.click();
    await dialog.waitFor({ state: 'detached' });
    const count = async (): Promise<number> =>
      [...(await serverVideos(app)).values()].reduce((a, b) => a + b, 0);
    await until(async () => (await count()) >= FILES / 5, 300_000);
    await page.context().setOffline(true);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await page.context().setOffline(false);
    await until(async () => (await count()) >= FILES / 2, 600_000);
    await page.reload();
    const finished = await until(async () => (await count()) >= FILES, 900_000);
    const seconds = (Date.now() - startedAt) / 1000;
    const videos = await serverVideos(app);
    const twice = [...videos.values()].filter((n) => n > 1).length;
    const lost = FILES - videos.size;
    console.log(
      `batch: ${videos.size} of ${FILES} files are videos in ${seconds.toFixed(0)} s (${(FILES / seconds).toFixed(1)} files/s), ${twice} twice, ${lost} lost${finished ? '' : ' (timed out)'}`,
    );
    if (!finished || twice > 0 || lost > 0) ok = false;

    // 3. The same folder again: nothing to upload, all already in the archive.
    await page.reload();
    const againAt = Date.now();
    await chooseFolderInDialog(page, folder, 'Bulk bench');
    const again = page.getByRole('dialog');
    const none = await again
      .getByText(`${FILES} files chosen: 0 to upload, ${FILES} left out`)
      .waitFor({ timeout: 600_000 })
      .then(
        () => true,
        () => false,
      );
    const notes = await page.evaluate(() =>
      [...document.querySelectorAll('[data-chosen-file] > span:nth-child(2)')].map((n) =>
        (n.textContent ?? '').replace(/ as .*/, ' as …'),
      ),
    );
    const tally = new Map<string, number>();
    for (const note of notes) tally.set(note, (tally.get(note) ?? 0) + 1);
    console.log(`  rows: ${[...tally].map(([note, n]) => `${n} × "${note}"`).join(', ')}`);
    const inArchive = notes.filter((n) => n.startsWith('Already in the archive as')).length;
    console.log(
      `same folder again: ${none ? 0 : 'some'} to upload, ${inArchive} rows say "Already in the archive" in ${((Date.now() - againAt) / 1000).toFixed(1)} s`,
    );
    if (!none || inArchive !== FILES) ok = false;
  } finally {
    await app.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  return { ok };
}
