// Upload figures of issue 3. The real server runs in a child process (STORAGE=local, serving the
// production web build, its memory its own); the real client queue runs in Debian's Chromium,
// driven through the upload dialog as a user would (playwright-core).
//
//  1. Throughput: a BENCH_UPLOAD_MB video (default 1024) carried by the queue (src/upload-queue:
//     create, multipart parts of 16 MiB with PARTS_IN_FLIGHT on the wire, complete, status),
//     timed from the job's "queued" message to its "done" message on the queue's channel. The
//     queue runs where the product runs it: in the service worker (fetch) on every visit after the
//     first, and in the page (XMLHttpRequest, for its progress events) when no worker controls it.
//     References: curl posting the same file to the same server's signed form (the request
//     alone), and Chromium itself sending the same parts with plain fetch, no queue. BENCH_ROUNDS
//     rounds (default 3) take turns; each figure is the median. The bar: queue >= 0.9 x
//     curl. What the queue adds over Chromium's own upload is the second ratio; the CPU seconds
//     per GB of each process show where the rest goes.
//  2. Browser memory: Chromium's PSS over all its processes during each queue transfer; a copy of
//     the file in memory would add its size.
//  3. Server memory: the server's RSS growth during every transfer above, and while the queue
//     carries a BENCH_RSS_MB video (default 2048); bar < 100 MB.
//  4. Resume cost: a proxy holds each part back a moment, then cuts the connections of the parts
//     it holds; the queue finishes; parts re-sent, bar: one per part in flight.
// Run: npm run bench -- upload  (quick: BENCH_UPLOAD_MB=256 BENCH_RSS_MB=256 BENCH_ROUNDS=1)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { MULTIPART_PART_SIZE } from '../server/src/limits.ts';
import { PARTS_IN_FLIGHT } from '../src/config/upload-queue.ts';
import { launchBrowser } from '../tests/e2e/support/browser.ts';
import { startFaultProxy } from '../tests/e2e/support/fault-proxy.ts';
import { paddedVideo } from '../tests/e2e/support/upload-dialog.ts';
import { makeVideo } from '../tests/support/media.ts';
import {
  ensureUploadWebBuild,
  openQueueSession,
  plainPartsUpload,
  queueState,
  startQueueUpload,
  uploadThroughQueue,
  type QueueSession,
} from './_upload-browser.ts';
import {
  BENCH_LOGIN,
  curlForm,
  median,
  signedParts,
  startServerChild,
  type BenchServer,
} from './_upload-node.ts';
import { observe, type CpuUse } from './_upload-proc.ts';

const MB = 1024 * 1024;
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const RSS_MB = Number(process.env.BENCH_RSS_MB ?? 2048);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = '00:00:03';
const SERVER_MEMORY_BAR_MB = 100;
/** A copy of the file anywhere in the browser would add its whole size. */
const BROWSER_MEMORY_BAR_MB = UPLOAD_MB / 4;

type Client = 'curl' | 'chromium' | 'worker' | 'page';
const CLIENTS: Record<Client, string> = {
  curl: 'curl, one signed form',
  chromium: `Chromium fetch, same parts, ${PARTS_IN_FLIGHT} at a time, no queue`,
  worker: 'queue in the service worker',
  page: 'queue in the page',
};

interface Throughput {
  seconds: Record<Client, number[]>;
  /** CPU seconds per GB by kind of process, averaged over the rounds. */
  cpuPerGb: Record<Client, CpuUse>;
  browserGrowthMb: number;
  serverGrowthMb: Record<Client, number>;
}

const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();
const rate = (seconds: number, mb = UPLOAD_MB): string =>
  `${(mb / seconds).toFixed(1)} MB/s (${seconds.toFixed(2)} s)`;

/** Uploaded files pile up in the server's storage: drop them so the disk does not fill. */
function dropStoredVideos(dataDir: string): void {
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (fs.statSync(full).size > 8 * MB) fs.rmSync(full);
    }
  };
  if (fs.existsSync(path.join(dataDir, 'files'))) walk(path.join(dataDir, 'files'));
}

async function throughput(
  server: BenchServer,
  dataDir: string,
  sessions: { worker: QueueSession; page: QueueSession },
  file: string,
): Promise<Throughput> {
  const clients = Object.keys(CLIENTS) as Client[];
  const out: Throughput = {
    seconds: { curl: [], chromium: [], worker: [], page: [] },
    cpuPerGb: { curl: {}, chromium: {}, worker: {}, page: {} },
    browserGrowthMb: 0,
    serverGrowthMb: { curl: 0, chromium: 0, worker: 0, page: 0 },
  };
  // Each run gets ready first (signs parts, goes through the dialog), then only the transfer is
  // observed (the queue's own timing starts at its "queued" message either way).
  const prepare: Record<Client, () => Promise<() => Promise<number>>> = {
    curl: () => Promise.resolve(() => curlForm(server, file)),
    chromium: async () => {
      const parts = await signedParts(server, fs.statSync(file).size);
      return async () => {
        const seconds = await plainPartsUpload(sessions.page, file, parts, PARTS_IN_FLIGHT);
        await parts.abort();
        return seconds;
      };
    },
    worker: async () => (await startQueueUpload(sessions.worker, file, DURATION)).done,
    page: async () => (await startQueueUpload(sessions.page, file, DURATION)).done,
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const line: string[] = [];
    for (const client of clients) {
      const seen = await observe(server.pid, await prepare[client]());
      dropStoredVideos(dataDir);
      out.seconds[client].push(seen.result);
      for (const [kind, s] of Object.entries(seen.cpu))
        out.cpuPerGb[client][kind] =
          (out.cpuPerGb[client][kind] ?? 0) + (s * 1024) / UPLOAD_MB / ROUNDS;
      out.serverGrowthMb[client] = Math.max(out.serverGrowthMb[client], seen.serverGrowthMb);
      if (client === 'worker' || client === 'page')
        out.browserGrowthMb = Math.max(out.browserGrowthMb, seen.chromiumGrowthMb);
      line.push(`${client} ${(UPLOAD_MB / seen.result).toFixed(1)}`);
    }
    console.log(`  round ${round} (MB/s): ${line.join(' | ')}`);
  }
  return out;
}

function report(t: Throughput): boolean {
  const clients = Object.keys(CLIENTS) as Client[];
  const med = Object.fromEntries(clients.map((c) => [c, median(t.seconds[c])])) as Record<
    Client,
    number
  >;
  for (const c of clients) {
    const cpu = Object.entries(t.cpuPerGb[c])
      .filter(([, s]) => s >= 0.05)
      .sort(([, a], [, b]) => b - a)
      .map(([kind, s]) => `${kind} ${s.toFixed(1)}`)
      .join(', ');
    console.log(`  median, ${CLIENTS[c].padEnd(50)} ${rate(med[c]).padStart(22)}`);
    console.log(`      CPU s per GB: ${cpu}`);
  }
  const ratio = (c: Client, of: Client): number => med[of] / med[c];
  const ratios = (of: Client): string =>
    `service worker ${ratio('worker', of).toFixed(2)}, page ${ratio('page', of).toFixed(2)}`;
  console.log(`  queue / curl (issue 3's bar: >= 0.90): ${ratios('curl')}`);
  console.log(`  queue / Chromium without the queue (what the queue costs): ${ratios('chromium')}`);
  const growth = clients.map((c) => `${c} ${t.serverGrowthMb[c].toFixed(1)}`).join(', ');
  console.log(
    `server RSS growth during those transfers (MB, bar < ${SERVER_MEMORY_BAR_MB}): ${growth}`,
  );
  console.log(
    `browser memory growth while the queue carries ${UPLOAD_MB} MB (Chromium PSS, all ` +
      `processes): ${t.browserGrowthMb.toFixed(0)} MB (bar < ${BROWSER_MEMORY_BAR_MB}; a copy ` +
      `of the file would add ${UPLOAD_MB})`,
  );
  return (
    ratio('worker', 'curl') >= 0.9 &&
    ratio('page', 'curl') >= 0.9 &&
    t.browserGrowthMb < BROWSER_MEMORY_BAR_MB &&
    clients.every((c) => t.serverGrowthMb[c] < SERVER_MEMORY_BAR_MB)
  );
}

/** The server's RSS while the queue carries a big video. */
async function serverMemory(
  server: BenchServer,
  session: QueueSession,
  file: string,
): Promise<boolean> {
  const upload = await startQueueUpload(session, file, DURATION);
  const seen = await observe(server.pid, upload.done);
  console.log(
    `server RSS while the queue carries ${RSS_MB} MB: ${seen.serverBaseMb.toFixed(0)} MB, ` +
      `growth ${seen.serverGrowthMb.toFixed(1)} MB (bar < ${SERVER_MEMORY_BAR_MB}); ` +
      `at ${rate(seen.result, RSS_MB)}`,
  );
  return seen.serverGrowthMb < SERVER_MEMORY_BAR_MB;
}

/**
 * The network drops in the middle of a queue upload: a counting proxy holds each part back a
 * moment, then cuts the connections of the parts it holds; the queue retries and finishes.
 */
async function resumeCost(browser: Browser, server: BenchServer, file: string): Promise<boolean> {
  const proxy = await startFaultProxy(server.url);
  const isPart = (r: { method: string; path: string }) =>
    r.method === 'PUT' && r.path.startsWith('/api/uploads/parts/');
  proxy.setRule((r) => (isPart(r) ? { delayMs: 500 } : undefined));
  const session = await openQueueSession(browser, proxy.url, BENCH_LOGIN, 'service worker');
  try {
    const parts = Math.ceil(fs.statSync(file).size / MULTIPART_PART_SIZE);
    const { page } = session;
    const upload = await startQueueUpload(session, file, DURATION);
    // Cut once some parts are on the server and more are on their way.
    await page
      .waitForFunction(() =>
        [...document.querySelectorAll('[data-upload-state="transferring"]')].some(
          (row) => Number(/part (\d+) of/.exec(row.textContent ?? '')?.[1]) >= 3,
        ),
      )
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await queueState(page)}`);
      });
    let cut = 0;
    while (cut === 0) {
      cut = proxy.cutHeld();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await upload.done();
    const resent = proxy.seen.filter(isPart).length - parts;
    console.log(
      `resume cost: the connections of ${cut} parts in flight cut (2 or more of ${parts} up); ` +
        `parts re-sent: ${resent} (bar <= ${PARTS_IN_FLIGHT}, one per part in flight)`,
    );
    return resent <= PARTS_IN_FLIGHT;
  } finally {
    await session.close();
    await proxy.close();
  }
}

export async function main(): Promise<{ ok: boolean }> {
  const loadBefore = uptime();
  const webRoot = ensureUploadWebBuild();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-upload-'));
  const dataDir = path.join(tmp, 'data');
  const server = await startServerChild(dataDir, webRoot);
  let browser: Browser | undefined;
  try {
    const clip = (await makeVideo({ segments: [{ source: 'testsrc', seconds: 3 }], fps: 10 })).file;
    const file = paddedVideo(clip, path.join(tmp, 'throughput.mp4'), UPLOAD_MB * MB);
    const small = paddedVideo(clip, path.join(tmp, 'small.mp4'), 80 * MB);
    browser = await launchBrowser();
    const sessions = {
      worker: await openQueueSession(browser, server.url, BENCH_LOGIN, 'service worker'),
      page: await openQueueSession(browser, server.url, BENCH_LOGIN, 'page'),
    };
    // Warm-up (page cache, JIT, the dialog's code and probe worker), not measured.
    await curlForm(server, small);
    for (const session of Object.values(sessions))
      await uploadThroughQueue(session, small, DURATION);
    dropStoredVideos(dataDir);

    console.log(`load before: ${loadBefore}`);
    console.log(
      `throughput, ${UPLOAD_MB} MB video, ${ROUNDS} rounds (queue: parts of 16 MiB, ` +
        `${PARTS_IN_FLIGHT} in flight):`,
    );
    const throughputOk = report(await throughput(server, dataDir, sessions, file));
    fs.rmSync(file);

    const big = paddedVideo(clip, path.join(tmp, 'big.mp4'), RSS_MB * MB);
    const serverOk = await serverMemory(server, sessions.worker, big);
    fs.rmSync(big);
    dropStoredVideos(dataDir);
    for (const session of Object.values(sessions)) await session.close();

    const tenParts = paddedVideo(clip, path.join(tmp, 'ten-parts.mp4'), 160 * MB);
    const resumeOk = await resumeCost(browser, server, tenParts);
    console.log(`load after: ${uptime()}`);
    return { ok: throughputOk && serverOk && resumeOk };
  } finally {
    await browser?.close().catch(() => undefined);
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
