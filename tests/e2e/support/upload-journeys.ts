// What the upload journeys (upload.spec.ts, upload-reload.spec.ts) look at: the queue's rows in
// the list, the requests the fault proxy saw, and the server's record of the video.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { E2eApp } from './app.ts';
import type { FaultProxy, SeenRequest } from './fault-proxy.ts';
import { messages } from './ui.ts';

export const LIST_LABEL = messages('en')['videos.listLabel']!;

/** The app as a browser sees it through the fault proxy (the service worker's requests too). */
export function proxiedApp(app: E2eApp, proxy: FaultProxy): E2eApp {
  return {
    ...app,
    async newPage({ locale = 'en-US' } = {}) {
      const context = await app.browser.newContext({ locale, baseURL: proxy.url });
      return context.newPage();
    },
  };
}

type Req = Pick<SeenRequest, 'method' | 'path'>;

export const isPartPut = (r: Req): boolean =>
  r.method === 'PUT' && r.path.startsWith('/api/uploads/parts/');
export const isCreate = (r: Req): boolean => r.method === 'POST' && r.path === '/api/videos';
export const isFormPost = (r: Req): boolean =>
  r.method === 'POST' && r.path.startsWith('/api/uploads/form');
export const isStatus = (r: Req): boolean =>
  r.method === 'PUT' && r.path.endsWith('/update-status');

/** Waits until the upload row says "part k of n" with k >= index (parts land a few at once). */
export async function waitForPart(page: Page, filename: string, index: number): Promise<void> {
  await page.waitForFunction(
    ({ name, least }) =>
      [...document.querySelectorAll('[data-upload-state="transferring"]')].some(
        (row) =>
          row.textContent?.includes(name) &&
          Number(/part (\d+) of/.exec(row.textContent)?.[1]) >= least,
      ),
    { name: filename, least: index },
  );
}

/** The list's rows (queued uploads and the server's videos) that name the file. */
export function rowsNaming(page: Page, filename: string): Promise<number> {
  return page.evaluate(
    ({ name, label }) =>
      [...document.querySelectorAll(`[data-upload-job], ul[aria-label="${label}"] > li`)].filter(
        (row) => row.textContent?.includes(name),
      ).length,
    { name: filename, label: LIST_LABEL },
  );
}

/** Waits until the file's upload row is in one of the states ('gone': no row any more). */
export async function waitForState(
  page: Page,
  filename: string,
  states: string[],
  timeout = 30_000,
): Promise<string> {
  const handle = await page.waitForFunction(
    ({ name, wanted }) => {
      const rows = [...document.querySelectorAll('[data-upload-state]')].filter((row) =>
        row.textContent?.includes(name),
      );
      if (rows.length === 0) return wanted.includes('gone') ? 'gone' : false;
      const state = rows[0]!.getAttribute('data-upload-state') ?? '';
      return wanted.includes(state) ? state : false;
    },
    { name: filename, wanted: states },
    { timeout },
  );
  return (await handle.jsonValue()) as string;
}

/**
 * The queued row is gone, the server has the video exactly once with all its bytes and the
 * status call made, and the list shows as many rows as the server has videos.
 */
export async function expectExactlyOneVideo(
  app: E2eApp,
  page: Page,
  filename: string,
  bytes: number,
): Promise<void> {
  // First the server side: the queue's last step reached the server. (Waiting only for the queue
  // rows to go could pass before the row of a just-queued upload is first shown.)
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const videos = await app.running.ctx.db.query<{ status: string }>(
      'SELECT status FROM videos WHERE filename = $1',
      [filename],
    );
    if (videos.some((v) => v.status !== 'uploading')) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  } // (on time-out the assertions below say what is wrong)
  await page
    .waitForFunction(() => !document.querySelector('[data-upload-job]'), undefined, {
      timeout: 60_000,
    })
    .catch(async (error: unknown) => {
      const rows = await page
        .locator('[data-upload-job]')
        .evaluateAll((els) =>
          els.map((el) => `${el.getAttribute('data-upload-state')}: ${el.textContent}`),
        );
      throw new Error(`${String(error)}\n    still queued: ${rows.join(' | ')}`);
    });
  const rows = await app.running.ctx.db.query<{ status: string; source_key: string }>(
    'SELECT status, source_key FROM videos WHERE filename = $1',
    [filename],
  );
  assert.equal(rows.length, 1, `videos named ${filename}`);
  assert.notEqual(rows[0]!.status, 'uploading', 'the status call was made');
  const stored = await app.running.ctx.storage.stat(rows[0]!.source_key);
  assert.equal(stored?.size, bytes, 'the whole file is stored');
  const [{ count }] = (await app.running.ctx.db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM videos',
  )) as [{ count: number }];
  await page.waitForFunction(
    ({ label, expected }) =>
      document.querySelectorAll(`ul[aria-label="${label}"] > li`).length === expected,
    { label: LIST_LABEL, expected: count },
    { timeout: 15_000 },
  );
  assert.equal(await rowsNaming(page, filename), 1, `rows for ${filename} once it is up`);
}
