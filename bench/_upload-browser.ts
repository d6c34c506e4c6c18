// The real client queue for bench/upload.ts: the production web build (served by the bench's
// server child), Debian's Chromium, the upload dialog, and the queue's own progress messages on
// its BroadcastChannel to time a job from "queued" to "done". Also Chromium's memory meanwhile.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { webBuildIsStale } from '../server/src/web-build.ts';
import { UPLOAD_QUEUE_CHANNEL } from '../src/config/upload-queue.ts';
import { logIn } from '../tests/e2e/support/ui.ts';
import { uploadThroughDialog } from '../tests/e2e/support/upload-dialog.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Only this bench serves it, so rebuilding it in place pulls no file from under anyone. */
export const UPLOAD_WEB_ROOT = path.join(ROOT, '.tmp', 'bench-upload-web');

export function ensureUploadWebBuild(): string {
  if (webBuildIsStale(ROOT, UPLOAD_WEB_ROOT)) {
    const vite = path.join(ROOT, 'node_modules', '.bin', 'vite');
    const args = ['build', '--logLevel', 'error', '--outDir', UPLOAD_WEB_ROOT, '--emptyOutDir'];
    const built = spawnSync(vite, args, { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('Building the web app for the upload bench failed.');
  }
  return UPLOAD_WEB_ROOT;
}

/** Who runs the queue: the service worker (any visit after the first) or the page (no worker). */
export type QueueRunner = 'service worker' | 'page';

export interface QueueSession {
  page: Page;
  runner: QueueRunner;
  close(): Promise<void>;
}

interface BenchWindow {
  benchJobs: Record<string, { first: number; done?: number; state: string }>;
  benchChannel?: BroadcastChannel;
}

/** A signed-in tab on the video list whose uploads run in the given runner. */
export async function openQueueSession(
  browser: Browser,
  url: string,
  login: { email: string; password: string },
  runner: QueueRunner,
): Promise<QueueSession> {
  const context = await browser.newContext({
    baseURL: url,
    serviceWorkers: runner === 'page' ? 'block' : 'allow',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto('/login');
  await logIn(page, login.email, login.password);
  await page.waitForURL((u) => u.pathname === '/video');
  if (runner === 'service worker') {
    // The first visit installs the worker; from the next load on it controls the page.
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  }
  const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker?.controller));
  if (controlled !== (runner === 'service worker'))
    throw new Error(`expected the ${runner} to run the queue`);
  await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
  return { page, runner, close: () => context.close() };
}

/**
 * Uploads `file` through the dialog; `done()` answers the seconds from the job's first message
 * ("queued", sent once it is stored) to its "done" message (after the status call).
 */
export async function startQueueUpload(
  session: QueueSession,
  file: string,
  duration: string,
): Promise<{ done: () => Promise<number> }> {
  const { page } = session;
  await page.evaluate((channelName) => {
    const w = window as unknown as BenchWindow;
    w.benchChannel?.close();
    w.benchJobs = {};
    w.benchChannel = new BroadcastChannel(channelName);
    w.benchChannel.onmessage = (
      event: MessageEvent<{ type: string; jobId: string; state: string }>,
    ) => {
      const m = event.data;
      if (m.type !== 'job') return;
      const job = (w.benchJobs[m.jobId] ??= { first: performance.now(), state: m.state });
      job.state = m.state;
      if (m.state === 'done') job.done ??= performance.now();
    };
  }, UPLOAD_QUEUE_CHANNEL);
  await uploadThroughDialog(page, file, { about: 'Upload bench', duration });
  return { done: () => whenDone(page) };
}

async function whenDone(page: Page): Promise<number> {
  const handle = await page
    .waitForFunction(
      () => {
        const jobs = Object.values((window as unknown as BenchWindow).benchJobs);
        const failed = jobs.find((j) => j.state === 'failed');
        if (failed) return { error: 'the upload failed' };
        const done = jobs.find((j) => j.done !== undefined);
        return done ? { ms: done.done! - done.first } : false;
      },
      undefined,
      { timeout: 5 * 60_000, polling: 50 },
    )
    .catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await queueState(page)}`);
    });
  const result = (await handle.jsonValue()) as { ms?: number; error?: string };
  if (result.ms === undefined) throw new Error(result.error);
  return result.ms / 1000;
}

/** What the page knows of the queue (for a failure message): messages seen, rows, stored jobs. */
export async function queueState(page: Page): Promise<string> {
  // tsx names the arrow functions below with a helper the page does not have.
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  const seen = await page.evaluate(() => (window as unknown as BenchWindow).benchJobs);
  const rows = await page.locator('[data-upload-job]').allTextContents();
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('upload-queue');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const read = (store: string) =>
      new Promise<unknown[]>((resolve) => {
        const all = db.transaction(store).objectStore(store).getAll();
        all.onsuccess = () => resolve(all.result);
      });
    // (The token moved to the session's own database: src/lib/session-db.ts.)
    const jobs = (await read('jobs')) as Record<string, unknown>[];
    db.close();
    return {
      jobs: jobs.map(({ file, fileKeep, phase, hold, attempts, lastError, nextAttemptAt }) => ({
        file: (file as { name?: string } | undefined)?.name,
        fileKeep,
        phase,
        hold,
        attempts,
        lastError,
        dueInMs: Number(nextAttemptAt) - Date.now(),
      })),
    };
  });
  const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker?.controller));
  return (
    `messages ${JSON.stringify(seen)}; rows ${rows.join(' | ')}; stored ${JSON.stringify(stored)}; ` +
    `controlled by a worker: ${controlled}`
  );
}

/** startQueueUpload, then its done(). */
export async function uploadThroughQueue(
  session: QueueSession,
  file: string,
  duration: string,
): Promise<number> {
  return (await startQueueUpload(session, file, duration)).done();
}

/**
 * Chromium's own upload of the same bytes without the queue: the page PUTs the file's 16 MiB
 * slices to signed part URLs with fetch (what the queue does in the service worker), `inFlight`
 * at a time. Answers the seconds from the first request to the last answer.
 */
export async function plainPartsUpload(
  session: QueueSession,
  file: string,
  { urls, partSize }: { urls: string[]; partSize: number },
  inFlight: number,
): Promise<number> {
  const { page } = session;
  await page.evaluate(() => {
    if (document.getElementById('bench-file')) return;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-file';
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles('#bench-file', file);
  const ms = await page.evaluate(
    async ({ urls, partSize, inFlight }) => {
      const input = document.getElementById('bench-file') as HTMLInputElement;
      const source = input.files![0]!;
      const queue = urls.map((url, i) => ({ url, i }));
      const started = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const body = source.slice(next.i * partSize, (next.i + 1) * partSize);
            const res = await fetch(next.url, { method: 'PUT', body });
            if (res.status !== 200) throw new Error(`part ${next.i + 1}: ${res.status}`);
          }
        }),
      );
      return performance.now() - started;
    },
    { urls, partSize, inFlight },
  );
  return ms / 1000;
}
