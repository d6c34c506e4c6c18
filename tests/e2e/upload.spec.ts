// Journeys of issue 3: the upload dialog end to end, and a video chosen once is uploaded exactly
// once whatever happens meanwhile: a lost connection, server errors (reloads: upload-reload.spec.ts). The browser talks
// to the server through a proxy (support/fault-proxy.ts) that slows part uploads down, so there
// is time to interrupt a transfer, and injects the faults. The large video is a generated clip
// padded with a trailing `free` box to 72 MiB: above the queue's 64 MiB single-form threshold,
// so it travels as 5 multipart parts of 16 MiB, PARTS_IN_FLIGHT at a time. Throughout, the list
// shows one row per video: while it uploads, its upload row and not also the server's row.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { PARTS_IN_FLIGHT } from '../../src/config/upload-queue.ts';
import { makeVideo } from '../support/media.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { startFaultProxy, type FaultProxy, type FaultRule } from './support/fault-proxy.ts';
import { journey } from './support/journey.ts';
import { logIn, messages, waitForPath } from './support/ui.ts';
import {
  expectExactlyOneVideo as expectOne,
  isCreate,
  isPartPut,
  rowsNaming,
  waitForPart,
  waitForState,
  proxiedApp,
} from './support/upload-journeys.ts';
import {
  distinctCopy,
  paddedVideo,
  uploadThroughDialog as dialogUpload,
} from './support/upload-dialog.ts';

const MIB = 1024 * 1024;
const PART_COUNT = 5;
const email = 'uploader@example.com';
const password = 'Upload2024pass';

let app: E2eApp;
let proxy: FaultProxy;
let workDir: string;
let smallVideo: string;
let largeVideo: string;
let personImage: string;

/** A copy under a journey's own name, so every journey's video is told apart in the list. */
function copyAs(source: string, name: string): string {
  return distinctCopy(source, path.join(workDir, name));
}

before(async () => {
  app = await startApp();
  await app.createUser({ email, password });
  proxy = await startFaultProxy(app.url);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-e2e-upload-'));
  const clip = await makeVideo({ segments: [{ source: 'testsrc', seconds: 3 }], fps: 10 });
  smallVideo = clip.file;
  largeVideo = paddedVideo(clip.file, path.join(workDir, 'large.mp4'), 72 * MIB);
  // A 1x1 PNG.
  personImage = path.join(workDir, 'aiko.png');
  fs.writeFileSync(
    personImage,
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
});

after(async () => {
  await proxy?.close();
  await app?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** The app as seen through the proxy. */
const viaProxy = (): E2eApp => proxiedApp(app, proxy);

/** Part uploads take at least this long, so a transfer of 5 parts lasts a few seconds. */
const slowParts =
  (ms: number, extra?: FaultRule): FaultRule =>
  (request) =>
    extra?.(request) ?? (isPartPut(request) ? { delayMs: ms } : undefined);

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await logIn(page, email, password);
  await waitForPath(page, '/video');
}

/** Goes through both steps of the dialog and presses Upload. */
function uploadThroughDialog(
  page: Page,
  file: string,
  opts: { about?: string; person?: string } = {},
): Promise<void> {
  return dialogUpload(page, file, {
    about: opts.about,
    person: opts.person ? { name: opts.person, image: personImage } : undefined,
    duration: '00:00:03',
  });
}

const expectExactlyOneVideo = (page: Page, filename: string, bytes: number): Promise<void> =>
  expectOne(app, page, filename, bytes);

/**
 * Mid-transfer, the server already lists the video (as uploading): a fresh list that holds it
 * still shows one row for it, the upload row, for as long as we look.
 */
async function expectOneRowWhileUploading(page: Page, filename: string): Promise<void> {
  const listed = page.waitForResponse(
    (r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/videos',
  );
  await page.getByRole('button', { name: messages('en')['videos.refresh']!, exact: true }).click();
  const answer = (await (await listed).json()) as { items: { filename: string; status: string }[] };
  const served = answer.items.filter((v) => v.filename === filename);
  assert.equal(served.length, 1, 'the server lists the video while it uploads');
  for (let look = 0; look < 10; look++) {
    assert.equal(await rowsNaming(page, filename), 1, `rows for ${filename} during the transfer`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const state = await page
    .locator('[data-upload-job]', { hasText: filename })
    .getAttribute('data-upload-state');
  assert.equal(state, 'transferring', 'still transferring while the rows were counted');
}

journey(
  'the upload dialog queues a video and the list shows it once it is up',
  viaProxy,
  async (page) => {
    proxy.setRule(undefined);
    await signIn(page);
    const video = copyAs(smallVideo, 'harbour-festival.mp4');
    await uploadThroughDialog(page, video, { about: 'Harbour festival', person: 'Aiko' });
    await expectExactlyOneVideo(page, 'harbour-festival.mp4', fs.statSync(video).size);
    const people = await app.running.ctx.db.query<{ name: string }>(
      `SELECT p.name FROM video_people p JOIN videos v ON v.id = p.video_id
        WHERE v.filename = $1`,
      ['harbour-festival.mp4'],
    );
    assert.deepEqual(
      people.map((p) => p.name),
      ['Aiko'],
    );
  },
);

journey(
  'offline in the middle of the transfer, back online: the upload completes',
  viaProxy,
  async (page) => {
    proxy.setRule(slowParts(2000));
    await signIn(page);
    const video = copyAs(largeVideo, 'offline-test.mp4');
    const start = proxy.seen.length;
    await uploadThroughDialog(page, video);
    await waitForPart(page, 'offline-test.mp4', 1);
    await expectOneRowWhileUploading(page, 'offline-test.mp4');
    await page.context().setOffline(true);
    await waitForState(page, 'offline-test.mp4', ['offline', 'waiting-retry']);
    await page.context().setOffline(false);
    await expectExactlyOneVideo(page, 'offline-test.mp4', fs.statSync(video).size);
    const requests = proxy.seen.slice(start);
    assert.equal(requests.filter(isCreate).length, 1, 'one create call');
    assert.ok(
      requests.filter(isPartPut).length <= PART_COUNT + PARTS_IN_FLIGHT,
      'at most one part re-sent per part in flight',
    );
  },
  { timeoutMs: 150_000 },
);

journey(
  'a 503 on a part and a 500 on the status call: the upload still completes',
  viaProxy,
  async (page) => {
    const injected = { part: 0, status: 0 };
    proxy.setRule((request) => {
      if (isPartPut(request) && /\/2\?/.test(request.path) && injected.part === 0) {
        injected.part += 1;
        return { respond: { status: 503, body: '<Error><Code>SlowDown</Code></Error>' } };
      }
      if (request.method === 'PUT' && request.path.endsWith('/update-status') && !injected.status) {
        injected.status += 1;
        return { respond: { status: 500 } };
      }
      return undefined;
    });
    await signIn(page);
    const video = copyAs(largeVideo, 'faults-test.mp4');
    await uploadThroughDialog(page, video);
    await expectExactlyOneVideo(page, 'faults-test.mp4', fs.statSync(video).size);
    assert.deepEqual(injected, { part: 1, status: 1 }, 'both faults were injected');
  },
  { timeoutMs: 150_000 },
);

journey(
  'a part request that is never answered (a half-open connection): the upload still completes',
  viaProxy,
  async (page) => {
    // 4 parts of 16 MiB and a 64 KiB last one. The proxy swallows the last part's first request;
    // the queue's stall watchdog aborts it (fetch in the service worker: 30 s + 64 KiB at 32 KiB/s;
    // XMLHttpRequest in a page: 30 s without progress) and sends it again.
    const video = paddedVideo(
      smallVideo,
      path.join(workDir, 'half-open-test.mp4'),
      64 * MIB + 64 * 1024,
    );
    let swallowed = 0;
    proxy.setRule((request) => {
      if (isPartPut(request) && /\/5\?/.test(request.path) && swallowed === 0) {
        swallowed += 1;
        return { swallow: true };
      }
      return undefined;
    });
    await signIn(page);
    const start = proxy.seen.length;
    await uploadThroughDialog(page, video);
    await expectExactlyOneVideo(page, 'half-open-test.mp4', fs.statSync(video).size);
    const requests = proxy.seen.slice(start);
    assert.equal(swallowed, 1, 'the last part was swallowed once');
    assert.equal(requests.filter(isCreate).length, 1, 'one create call');
    const lastPart = requests.filter((r) => isPartPut(r) && /\/5\?/.test(r.path));
    assert.equal(lastPart.length, 2, 'the swallowed part was sent again');
    assert.equal(requests.filter(isPartPut).length, 6, 'no other part was sent again');
  },
  { timeoutMs: 180_000 },
);
