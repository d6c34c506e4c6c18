// Upload chaos (issue 14 section 4): CHAOS_UPLOADS (default 100) videos queued through the upload
// dialog of the production build in Debian's Chromium, with the service worker running the queue
// as it does for a returning user, against the real server (embedded PGlite on disk, local
// storage; no analysis worker: what is measured is each upload reaching the server exactly once).
// Between them the fault proxy of the end-to-end tests (tests/e2e/support/fault-proxy.ts) cuts
// part and form bodies at random bytes and answers 500, 503 or 429 to any upload step, before or
// after the server did its work (_upload-chaos-faults.ts); and the bench reloads the tab, closes
// it and opens a new one, restarts the server mid-transfer (the same data directory and port) and
// queues from two tabs at once (_upload-chaos-tabs.ts). Uploads go in batches of CHAOS_BATCH,
// each with one or two of those disruptions at a random moment; a user's part is played too: the
// file picked again when the queue asks for it, Retry pressed on a failed upload.
// Every choice comes from one seeded generator (server/src/lib/seeded-random.ts): the seed is
// printed, and CHAOS_SEED=<n> repeats the same files and disruptions, and the same sequence of
// HTTP fault draws (which request meets which draw still depends on the machine's timing).
// Bars: duplicates 0 (one server video per queued upload, its stored bytes those of the file),
// lost 0 (every upload completed, if need be after Retry), sign-outs 0 (no tab ever lands on the
// sign-in page and the session still works at the end).
// Run: npm run bench -- upload-chaos   (quick: CHAOS_UPLOADS=10)
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { mulberry32 } from '../server/src/lib/seeded-random.ts';
import { MULTIPART_PART_SIZE } from '../server/src/limits.ts';
import type { Running } from '../server/src/server.ts';
import { MEGABYTE } from '../src/config/limits.ts';
import { SINGLE_FORM_MAX_BYTES } from '../src/config/upload-queue.ts';
import { createAccount, startE2eServer } from '../tests/e2e/support/app.ts';
import { launchBrowser } from '../tests/e2e/support/browser.ts';
import {
  startFaultProxy,
  type FaultProxy,
  type SeenRequest,
} from '../tests/e2e/support/fault-proxy.ts';
import { paddedVideo, uploadThroughDialog } from '../tests/e2e/support/upload-dialog.ts';
import { freePort } from '../tests/support/free-port.ts';
import { makeVideo } from '../tests/support/media.ts';
import { chaosFaults, uploadStep, type ChaosFaults } from './_upload-chaos-faults.ts';
import { chaosTabs, type ChaosTabs } from './_upload-chaos-tabs.ts';
import { ensureUploadWebBuild, openQueueSession, queueState } from './_upload-browser.ts';
import { BENCH_LOGIN } from './_upload-node.ts';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const UPLOADS = Number(process.env.CHAOS_UPLOADS ?? 100);
const BATCH = Number(process.env.CHAOS_BATCH ?? 5);
const ODDS = {
  status: Number(process.env.CHAOS_STATUS_ODDS ?? 0.1),
  cut: Number(process.env.CHAOS_CUT_ODDS ?? 0.15),
  refresh: Number(process.env.CHAOS_REFRESH_ODDS ?? 0.2),
};
/** Share of uploads above the single form's limit, so they travel as multipart parts. */
const MULTIPART_SHARE = 0.4;
const PERSON_SHARE = 0.3;
/** A batch's uploads not on the server by then count as lost (the queue's backoff caps at 5 min). */
const BATCH_TIMEOUT_MS = Number(process.env.CHAOS_BATCH_TIMEOUT_S ?? 240) * 1000;
const DURATION = '00:00:03';
/** CHAOS_LOG=1: print the batch's steps and every upload request with its time. */
const LOG = Boolean(process.env.CHAOS_LOG);

const DISRUPTIONS = [
  'page reload',
  'tab closed and reopened',
  'server restarted',
  'two tabs at once',
] as const;
type Disruption = (typeof DISRUPTIONS)[number];

interface Upload {
  name: string;
  file: string;
  bytes: number;
  sha256: string;
  multipart: boolean;
  person: boolean;
}

interface Outcome {
  completed: number;
  duplicates: string[];
  lost: string[];
  /** On the server once, but its stored bytes are not the file's. */
  corrupt: string[];
  retried: Set<string>;
  picked: Set<string>;
}

const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sha256(stream: NodeJS.ReadableStream): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The server, stopped and started again at the same address with the same data directory. */
class RestartableServer {
  restarts = 0;
  constructor(
    public running: Running,
    private readonly start: () => Promise<Running>,
  ) {}

  /** Goes down mid-transfer: every open connection drops, then the process's work starts over. */
  async restart(proxy: FaultProxy): Promise<number> {
    const started = performance.now();
    proxy.cutAll();
    await this.running.close();
    this.running = await this.start();
    this.restarts += 1;
    return performance.now() - started;
  }
}

function makeUploads(random: () => number, clip: string, dir: string, first: number, n: number) {
  const uploads: Upload[] = [];
  for (let i = first; i < first + n; i++) {
    const multipart = random() < MULTIPART_SHARE;
    const bytes = multipart
      ? SINGLE_FORM_MAX_BYTES + Math.ceil(random() * 24 * MEGABYTE)
      : Math.ceil((0.5 + random() * 12) * MEGABYTE);
    const name = `chaos-${SEED}-${String(i + 1).padStart(3, '0')}.mp4`;
    const file = paddedVideo(clip, path.join(dir, name), bytes);
    const upload = { name, file, bytes, multipart, person: random() < PERSON_SHARE, sha256: '' };
    uploads.push(upload);
  }
  return uploads;
}

/** The server's videos for an upload's file name. */
function videosNamed(server: RestartableServer, name: string) {
  return server.running.ctx.db.query<{ id: string; status: string; source_key: string | null }>(
    'SELECT id, status, source_key FROM videos WHERE filename = $1',
    [name],
  );
}

/** Waits until every upload of the batch reached the server (or the batch's time is up). */
async function settle(
  server: RestartableServer,
  tabs: ChaosTabs,
  uploads: Upload[],
  outcome: Outcome,
): Promise<void> {
  const byName = new Map(uploads.map((u) => [u.name, u.file]));
  const until = Date.now() + BATCH_TIMEOUT_MS;
  while (Date.now() < until) {
    let open = 0;
    for (const u of uploads)
      if ((await videosNamed(server, u.name)).every((v) => v.status === 'uploading')) open++;
    if (open === 0) break;
    const { retried, picked } = await tabs.tend((name) => byName.get(name));
    retried.forEach((name) => outcome.retried.add(name));
    picked.forEach((name) => outcome.picked.add(name));
    await sleep(1_000);
  }
  // The queue's rows go once their jobs are done (a done job leaves on the runner's next look).
  await tabs.main
    .waitForFunction(() => !document.querySelector('[data-upload-job]'), undefined, {
      timeout: 30_000,
    })
    .catch(async () => console.log(`  rows still shown: ${await queueState(tabs.main)}`));
}

/** Counts what reached the server, checks its bytes, then frees the disk for the next batch. */
async function verify(server: RestartableServer, uploads: Upload[], outcome: Outcome) {
  const { storage } = server.running.ctx;
  for (const u of uploads) {
    const videos = await videosNamed(server, u.name);
    const done = videos.filter((v) => v.status !== 'uploading');
    if (videos.length > 1) outcome.duplicates.push(`${u.name} x${videos.length}`);
    if (done.length === 0) {
      outcome.lost.push(`${u.name} (${videos.map((v) => v.status).join(', ') || 'no video'})`);
      continue;
    }
    const key = done[0]!.source_key;
    const stored = key ? await sha256(await storage.read(key)) : 'none';
    if (stored === u.sha256) outcome.completed += 1;
    else outcome.corrupt.push(u.name);
    for (const v of videos) if (v.source_key) await storage.delete(v.source_key);
    fs.rmSync(u.file, { force: true });
  }
}

/** Once a part or form body is on its way to the server (or after a few seconds anyway). */
async function midTransfer(proxy: FaultProxy, random: () => number): Promise<void> {
  const carriesFile = (r: SeenRequest) => {
    const step = uploadStep(r);
    return step === 'part' || step === 'signed form';
  };
  for (const until = Date.now() + 8_000; Date.now() < until; await sleep(50))
    if (proxy.inFlight().some(carriesFile)) break;
  await sleep(random() * 300);
}

async function disrupt(
  kind: Exclude<Disruption, 'two tabs at once'>,
  tabs: ChaosTabs,
  server: RestartableServer,
  proxy: FaultProxy,
): Promise<void> {
  if (kind === 'page reload') await tabs.reload();
  else if (kind === 'tab closed and reopened') await tabs.closeAndReopen();
  else {
    const ms = await server.restart(proxy);
    if (ms > 15_000) console.log(`  the server took ${(ms / 1000).toFixed(1)} s to restart`);
  }
}

async function runBatch(
  uploads: Upload[],
  plan: { kinds: Disruption[]; after: number[] },
  ctx: {
    tabs: ChaosTabs;
    server: RestartableServer;
    proxy: FaultProxy;
    random: () => number;
    personImage: string;
    outcome: Outcome;
  },
): Promise<void> {
  const { tabs, server, proxy, random } = ctx;
  const t0 = performance.now();
  const at = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  const twoTabs = plan.kinds.includes('two tabs at once');
  if (twoTabs) await tabs.openSecond();
  for (const [i, u] of uploads.entries()) {
    const page = twoTabs && i % 2 === 1 && tabs.second ? tabs.second : tabs.main;
    await uploadThroughDialog(page, u.file, {
      about: `Chaos ${u.name}`,
      person: u.person ? { name: 'Aiko', image: ctx.personImage } : undefined,
      duration: DURATION,
    });
    for (const [k, kind] of plan.kinds.entries()) {
      if (kind === 'two tabs at once' || plan.after[k] !== i) continue;
      await midTransfer(proxy, random);
      if (LOG) console.log(`  ${at()}: ${kind}`);
      await disrupt(kind, tabs, server, proxy);
      if (LOG) console.log(`  ${at()}: ${kind} done`);
    }
  }
  if (LOG) console.log(`  ${at()}: all queued`);
  await settle(server, tabs, uploads, ctx.outcome);
  if (LOG) console.log(`  ${at()}: settled`);
  if (twoTabs) await tabs.closeSecond();
  await verify(server, uploads, ctx.outcome);
}

function planBatch(random: () => number, size: number) {
  const pick = (): Disruption => DISRUPTIONS[Math.floor(random() * DISRUPTIONS.length)]!;
  const kinds = [pick()];
  if (random() < 0.5) kinds.push(pick());
  return { kinds, after: kinds.map(() => Math.floor(random() * size)) };
}

function report(
  outcome: Outcome,
  uploads: { multipart: number; single: number; person: number },
  faults: ChaosFaults,
  disruptions: Map<Disruption, number>,
  proxy: FaultProxy,
  tabs: ChaosTabs,
  expectedParts: number,
): void {
  const seen = proxy.seen.map(uploadStep);
  const partPuts = seen.filter((s) => s === 'part').length;
  const formPosts = seen.filter((s) => s === 'signed form').length;
  const list = <K>(m: Map<K, number>) =>
    [...m].map(([k, n]) => `${String(k)} ${n}`).join(', ') || 'none';
  const total = uploads.multipart + uploads.single;
  console.log(
    `total ${total} (${uploads.multipart} multipart, ${uploads.single} single form, ` +
      `${uploads.person} with a person image), completed ${outcome.completed}, ` +
      `duplicates ${outcome.duplicates.length}, lost ${outcome.lost.length}, ` +
      `corrupt ${outcome.corrupt.length}`,
  );
  if (outcome.duplicates.length) console.log(`  duplicates: ${outcome.duplicates.join(', ')}`);
  if (outcome.lost.length) console.log(`  lost: ${outcome.lost.join(', ')}`);
  if (outcome.corrupt.length) console.log(`  corrupt: ${outcome.corrupt.join(', ')}`);
  console.log(
    `failed and completed after Retry: ${outcome.retried.size}; ` +
      `file picked again when the queue asked: ${outcome.picked.size}`,
  );
  console.log(
    `parts re-sent: ${partPuts - expectedParts} (${partPuts} part uploads for ${expectedParts} ` +
      `parts); signed forms re-sent: ${formPosts - uploads.single} (${formPosts} for ` +
      `${uploads.single})`,
  );
  console.log(
    `sign-outs: ${tabs.signOuts.length}; rows seen waiting for a sign-in: ${tabs.waitingAuth}`,
  );
  const injected = [...faults.counts.values()].reduce((a, b) => a + b, 0);
  console.log(`HTTP faults injected: ${injected}: ${list(faults.counts)}`);
  console.log(`  by step: ${list(faults.bySteps)}`);
  console.log(`disruptions: ${list(disruptions)}`);
}

export async function main(): Promise<{ ok: boolean }> {
  const loadBefore = uptime();
  const started = performance.now();
  const webRoot = ensureUploadWebBuild();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-chaos-'));
  const dataDir = path.join(tmp, 'data');
  const port = await freePort();
  const start = () => startE2eServer({ port, dataDir, webRoot, worker: 'off' });
  const server = new RestartableServer(await start(), start);
  const proxy = await startFaultProxy(`http://127.0.0.1:${port}`);
  // Two streams: files and disruptions come out the same for a seed, whatever order the
  // browser's requests (which draw the HTTP faults) arrive in.
  const random = mulberry32(SEED);
  const faults = chaosFaults(mulberry32(SEED ^ 0x5bd1e995), ODDS);
  const t0 = performance.now();
  proxy.setRule((request) => {
    const decision = faults.rule(request);
    const step = uploadStep(request);
    if (LOG && step) {
      const t = ((performance.now() - t0) / 1000).toFixed(1);
      console.log(
        `    ${t} ${step} ${request.path.slice(0, 60)} ${JSON.stringify(decision ?? '')}`,
      );
    }
    return decision;
  });
  let browser: Browser | undefined;
  try {
    await createAccount(server.running, { ...BENCH_LOGIN, team: 'Chaos' });
    const clip = (await makeVideo({ segments: [{ source: 'testsrc', seconds: 3 }], fps: 10 })).file;
    const personImage = path.join(tmp, 'aiko.png');
    fs.writeFileSync(
      personImage,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    browser = await launchBrowser();
    const session = await openQueueSession(browser, proxy.url, BENCH_LOGIN, 'service worker');
    const tabs = chaosTabs(session.page.context(), session.page);
    console.log(
      `seed ${SEED} (CHAOS_SEED=${SEED} repeats it), ${UPLOADS} uploads in batches of ${BATCH}; ` +
        `load before: ${loadBefore}`,
    );

    const outcome: Outcome = {
      completed: 0,
      duplicates: [],
      lost: [],
      corrupt: [],
      retried: new Set(),
      picked: new Set(),
    };
    const counts = { multipart: 0, single: 0, person: 0 };
    const disruptions = new Map<Disruption, number>();
    let expectedParts = 0;
    for (let first = 0; first < UPLOADS; first += BATCH) {
      const uploads = makeUploads(random, clip, tmp, first, Math.min(BATCH, UPLOADS - first));
      for (const u of uploads) {
        u.sha256 = await sha256(fs.createReadStream(u.file));
        counts[u.multipart ? 'multipart' : 'single'] += 1;
        if (u.person) counts.person += 1;
        if (u.multipart) expectedParts += Math.ceil(u.bytes / MULTIPART_PART_SIZE);
      }
      const plan = planBatch(random, uploads.length);
      for (const kind of plan.kinds) disruptions.set(kind, (disruptions.get(kind) ?? 0) + 1);
      faults.armed = true;
      await runBatch(uploads, plan, { tabs, server, proxy, random, personImage, outcome });
      faults.armed = false;
      const elapsed = ((performance.now() - started) / 1000).toFixed(0);
      console.log(
        `  ${first + uploads.length}/${UPLOADS} (${plan.kinds.join(' + ')}): completed ` +
          `${outcome.completed}, duplicates ${outcome.duplicates.length}, lost ` +
          `${outcome.lost.length}, sign-outs ${tabs.signOuts.length}, ${elapsed} s`,
      );
    }

    // The session survived: a fresh load still opens the signed-in list.
    await tabs.reload().catch(() => tabs.signOuts.push('the last reload did not reach the list'));
    report(outcome, counts, faults, disruptions, proxy, tabs, expectedParts);
    console.log(`server restarts: ${server.restarts}; load after: ${uptime()}`);
    return {
      ok:
        outcome.duplicates.length === 0 &&
        outcome.lost.length === 0 &&
        outcome.corrupt.length === 0 &&
        tabs.signOuts.length === 0,
    };
  } finally {
    await browser?.close().catch(() => undefined);
    await proxy.close();
    await server.running.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
