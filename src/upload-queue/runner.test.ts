// The job state machine, one transition at a time, with the runner "killed" after every
// transition (a new runner and a new database connection, no memory carried over).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Limits from '../config/limits.ts';
import { createFakeUploadServer, type FakeUploadServer } from './testing/fake-upload-server.ts';
import { bytesOf, makeFile, useNodeBlobs } from './testing/node-blobs.ts';
import { rememberSessionFile } from './file-source.ts';
import { buildJob, type EnqueueInput } from './job-factory.ts';
import { openSessionDb, type SessionDb } from '../lib/session-db.ts';
import { openJobStore, type JobStore } from './job-store.ts';
import { jobState, type JobMessage, type UploadJob } from './job-types.ts';
import type { Http } from './http.ts';
import { createRunner } from './runner.ts';

// The product asks a refresh without an answer again after 1, 3 and 6 s: the same tries, at once.
vi.mock('../config/limits.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof Limits>()),
  REFRESH_RETRY_DELAYS_MS: [1, 1, 1],
}));

const PART = 64 * 1024;
const VALID_STATES = new Set([
  'queued',
  'created',
  'people-uploaded',
  'transferring',
  'completing',
  'status-sent',
  'done',
  'waiting-retry',
  'offline',
  'waiting-auth',
  'needs-file',
  'failed',
  'cancelled',
]);

let dbName: string;
let server: FakeUploadServer;
let clock: number;
let online: boolean;
let messages: JobMessage[];

beforeEach(async () => {
  await useNodeBlobs();
  dbName = `upload-queue-test-${crypto.randomUUID()}`;
  server = createFakeUploadServer({ partSize: PART });
  clock = 1_000_000;
  online = true;
  messages = [];
});

function input(size: number, people = 1): EnqueueInput {
  return {
    payload: {
      filename: 'trip.mp4',
      video_length: 12.5,
      video_date: '2024-03-04T05:06:07.000',
      output_language: 'en',
      about_this_video: 'A trip',
    },
    people: Array.from({ length: people }, (_, i) => ({
      name: `Person ${i + 1}`,
      image: makeFile(bytesOf(100, i + 7), `p${i}.png`, 1, 'image/png'),
    })),
    file: makeFile(bytesOf(size, 42), 'trip.mp4', 1_700_000_000_000),
  };
}

async function enqueue(size: number, keep: 'blob' | 'none' = 'blob', people = 1): Promise<string> {
  const store = await openJobStore(dbName);
  const { job, blobs } = await buildJob(input(size, people), 'u1', clock, () =>
    Promise.resolve(keep === 'blob'),
  );
  await store.add(job, blobs);
  await (await sessionOf()).setAuth({ token: 'token-1', userId: 'u1' });
  store.close();
  return job.id;
}

/**
 * A fresh runner on a fresh connection for up to `maxTransitions`, then everything is dropped
 * (waits pass at once on the fake clock); answers the stored jobs and the waits it slept.
 */
async function runnerLife(
  maxTransitions: number,
  { random = () => 0.5, partsInFlight }: { random?: () => number; partsInFlight?: number } = {},
): Promise<{ jobs: UploadJob[]; waits: number[] }> {
  const store = await openJobStore(dbName);
  const waits: number[] = [];
  const runner = createRunner({
    store,
    session: await sessionOf(),
    http: server.http,
    publish: (m) => messages.push(m),
    now: () => clock,
    random,
    sleep: (ms) => {
      waits.push(ms);
      clock += ms;
      return Promise.resolve();
    },
    isOnline: () => online,
    singleFormMaxBytes: 1024,
    partsInFlight,
  });
  await runner.run({ maxTransitions });
  const jobs = await store.list();
  store.close();
  return { jobs, waits };
}

/** One transition by a fresh runner on a fresh connection, then everything is dropped. */
async function runOnce(): Promise<UploadJob[]> {
  return (await runnerLife(1)).jobs;
}

/** One runner life that goes on until nothing is left to do; answers the waits it slept. */
async function runLong(random?: () => number, partsInFlight?: number): Promise<number[]> {
  return (await runnerLife(100, { random, partsInFlight })).waits;
}

/** Runs one transition at a time until the stored job has `parts` parts confirmed. */
async function runUntilParts(parts: number): Promise<UploadJob> {
  for (let i = 0; i < 50; i += 1) {
    const [job] = await runOnce();
    if ((job!.multipart?.parts.length ?? 0) >= parts) return job!;
  }
  throw new Error(`${parts} parts never landed`);
}

async function runUntilSettled(limit = 200): Promise<UploadJob> {
  let jobs: UploadJob[] = [];
  for (let i = 0; i < limit; i += 1) {
    jobs = await runOnce();
    expect(jobs).toHaveLength(1); // never a lost job, never a second one
    const state = jobState(jobs[0]!);
    expect(VALID_STATES.has(state)).toBe(true);
    if (['done', 'failed', 'needs-file', 'waiting-auth', 'offline'].includes(state)) break;
    if (state === 'cancelled' && !jobs[0]!.cancelPending) break;
  }
  return jobs[0]!;
}

async function storeOf(): Promise<JobStore> {
  return openJobStore(dbName);
}

/** Who is signed in, in the session's own database (one per test, like the queue's). */
function sessionOf(): Promise<SessionDb> {
  return openSessionDb(`${dbName}-session`);
}

describe('upload runner', () => {
  it('uploads a small file through the signed form, one transition per runner life', async () => {
    await enqueue(800);
    const seen: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const [job] = await runOnce();
      seen.push(jobState(job!));
      if (job!.phase === 'done') break;
    }
    expect(seen).toEqual([
      'created',
      'people-uploaded',
      'transferring',
      'completing',
      'status-sent',
      'done',
    ]);
    expect(server.stats.creates).toBe(1);
    const [video] = server.liveVideos();
    expect(video).toMatchObject({ bytes: 800, status: 'in_progress', peopleNames: ['Person 1'] });
    expect(messages.at(-1)).toMatchObject({ state: 'done', progress: 1, videoId: video!.id });
  });

  it('uploads a large file in parts, each part once, and removes the stored blobs at the end', async () => {
    const size = 5 * PART - 123;
    const id = await enqueue(size);
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
    expect(server.stats.creates).toBe(1);
    expect(server.stats.partPuts).toBe(5);
    expect(server.liveVideos()[0]).toMatchObject({ bytes: size, status: 'in_progress' });
    const parts = messages.filter((m) => m.part).map((m) => m.part!.index);
    expect(Math.max(...parts)).toBe(5);
    const store = await storeOf();
    expect(await store.getBlobs(id)).toBeUndefined();
    store.close();
  });

  it('lists the parts again when a late copy of one changed its ETag, and completes once', async () => {
    await enqueue(3 * PART);
    await runUntilParts(3);
    server.rewritePart(2);
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
    expect(server.stats.partPuts).toBe(3); // nothing sent again: the server has every part
    expect(server.liveVideos()[0]).toMatchObject({ bytes: 3 * PART, status: 'in_progress' });
  });

  it('fails when the parts keep changing after they were listed again', async () => {
    await enqueue(3 * PART);
    await runUntilParts(3);
    for (let i = 0; i < 10; i += 1) {
      server.rewritePart(1 + (i % 3));
      const [job] = await runOnce();
      if (job!.hold === 'failed') {
        expect(job!.lastError).toMatch(/etags/i);
        return;
      }
    }
    throw new Error('the job never failed');
  });

  it('never creates twice when answers are lost after the server acted', async () => {
    await enqueue(3 * PART);
    const anyPath = (m: string, p: string) => (method: string, path: string) =>
      method === m && path.includes(p);
    server.fail(anyPath('POST', '/api/videos'), 'lose-response', 2);
    server.fail(anyPath('PUT', '/part/'), 'lose-response');
    server.fail(anyPath('POST', '/multipart/complete'), 'lose-response');
    server.fail(anyPath('PUT', '/update-status'), 'lose-response');
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
    expect(server.stats.createCalls).toBe(3);
    expect(server.stats.creates).toBe(1);
    // The part whose answer was lost is found by listing parts after the restart: not re-sent.
    expect(server.stats.partPuts).toBe(3);
    expect(server.liveVideos()).toHaveLength(1);
  });

  it('retries 5xx, 429 and network errors with backoff and still finishes once', async () => {
    await enqueue(3 * PART);
    server.fail((m, p) => m === 'PUT' && p.includes('/part/'), { status: 503 });
    server.fail((m, p) => m === 'PUT' && p.endsWith('/update-status'), { status: 500 });
    server.fail((m, p) => m === 'POST' && p === '/api/videos', 'network');
    server.fail((m, p) => p.endsWith('/sign-parts'), { status: 429, retryAfter: '7' });
    const waits: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const [job] = await runOnce();
      if (job!.hold === 'waiting-retry') waits.push(job!.nextAttemptAt - clock);
      if (job!.phase === 'done') break;
    }
    expect(server.liveVideos()[0]?.status).toBe('in_progress');
    expect(server.stats.creates).toBe(1);
    // Retry-After wins over jitter; jittered waits stay within 1 s .. 2^attempt s.
    expect(waits).toContain(7_000);
    for (const wait of waits.filter((w) => w !== 7_000)) {
      expect(wait).toBeGreaterThanOrEqual(1_000);
      expect(wait).toBeLessThanOrEqual(2_000);
    }
  });

  it('starts the backoff over after each part that lands, even when the transfer then fails', async () => {
    await enqueue(6 * PART);
    // Parts 2, 4 and 6 fail once each, every time after the part before them landed in the same
    // transition: each failure follows progress, so each waits the first backoff step (1 s).
    const failedOnce = new Set<string>();
    server.fail(
      (m, p) => {
        if (m !== 'PUT' || !/\/part\/\w+\/[246]$/.test(p) || failedOnce.has(p)) return false;
        failedOnce.add(p);
        return true;
      },
      { status: 503 },
      3,
    );
    // random 0.99: without the reset the waits would grow to 1.98 s and 3.96 s.
    const waits = await runLong(() => 0.99, 1);
    expect(messages.at(-1)?.state).toBe('done');
    expect(failedOnce.size).toBe(3);
    expect(waits).toEqual([1_000, 1_000, 1_000]);
  });

  it('re-signs parts and renews the form when signatures expire', async () => {
    await enqueue(2 * PART);
    let expired = false;
    for (let i = 0; i < 30; i += 1) {
      const [job] = await runOnce();
      if (!expired && job!.multipart?.parts.length === 1) {
        server.expireSignatures();
        expired = true;
      }
      if (job!.phase === 'done') break;
    }
    expect(server.liveVideos()[0]).toMatchObject({ bytes: 2 * PART, status: 'in_progress' });

    server.expireSignatures();
    dbName = `${dbName}-form`;
    await enqueue(500);
    let formJob: UploadJob | undefined;
    for (let i = 0; i < 30; i += 1) {
      [formJob] = await runOnce();
      if (formJob!.phase === 'created') server.expireSignatures();
      if (formJob!.phase === 'done') break;
    }
    expect(formJob?.phase).toBe('done');
    expect(server.stats.creates).toBe(2);
  });

  it('starts a new multipart upload for the same video when the old one expired offline', async () => {
    const size = 4 * PART;
    await enqueue(size);
    const before = await runUntilParts(2);
    // A day offline: the server dropped the upload and every signature is stale.
    clock += 25 * 60 * 60 * 1_000;
    server.expireUploads();
    server.expireSignatures();
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
    expect(messages.some((m) => m.state === 'failed')).toBe(false);
    expect(server.stats.creates).toBe(1);
    expect(server.liveVideos()).toEqual([
      expect.objectContaining({ id: before.videoId, bytes: size, status: 'in_progress' }),
    ]);
    expect(server.uploads.get(before.multipart!.uploadId)?.state).toBe('expired');
    const states = [...server.uploads.values()].map((u) => u.state);
    expect(states.sort()).toEqual(['completed', 'expired']);
  });

  it.each([
    [
      'a part upload (S3: 404 NoSuchUpload)',
      (m: string, p: string) => m === 'PUT' && p.includes('/part/'),
      3,
    ],
    ['signing parts (410)', (m: string, p: string) => p.endsWith('/sign-parts'), 1],
    ['the complete call (410)', (m: string, p: string) => p.endsWith('/multipart/complete'), 1],
  ])('starts a new multipart upload when %s finds the old one gone', async (_, call, nth) => {
    const size = 4 * PART;
    await enqueue(size);
    let seen = 0;
    server.fail((m, p) => call(m, p) && ++seen === nth, 'expire-upload');
    await runLong();
    expect(messages.at(-1)?.state).toBe('done');
    expect(messages.some((m) => m.state === 'failed')).toBe(false);
    expect(server.stats.creates).toBe(1);
    expect(server.liveVideos()).toEqual([
      expect.objectContaining({ bytes: size, status: 'in_progress' }),
    ]);
    expect([...server.uploads.values()].map((u) => u.state).sort()).toEqual([
      'completed',
      'expired',
    ]);
  });

  it('fails with the server message when the video itself is gone', async () => {
    await enqueue(4 * PART);
    const before = await runUntilParts(1);
    server.videos.get(before.videoId!)!.deleted = true;
    server.expireUploads();
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('failed');
    expect(job.lastError).toBe('Video not found');
    expect(server.stats.creates).toBe(1);
  });

  it('does not start upload after upload against a server that drops each at once; Retry does', async () => {
    await enqueue(3 * PART);
    const gone = { status: 410, detail: 'The upload has expired or was aborted; start a new one.' };
    server.fail((_, p) => p.endsWith('/sign-parts'), gone, 2);
    let job = await runUntilSettled();
    expect(jobState(job)).toBe('failed');
    expect(job.lastError).toBe(gone.detail);
    const starts = () => server.stats.requests.filter((r) => r.endsWith('/multipart')).length;
    expect(starts()).toBe(2);
    // The user's Retry (queue-client's retry) starts a fresh upload instead of the dead one.
    const store = await storeOf();
    await store.update(job.id, (j) => ({ ...j, hold: 'active', attempts: 0, nextAttemptAt: 0 }));
    store.close();
    job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
    expect(starts()).toBe(3);
    expect(server.stats.creates).toBe(1);
  });

  it('fails with the server message on other 4xx', async () => {
    await enqueue(500);
    server.fail((m, p) => m === 'POST' && p === '/api/videos', {
      status: 422,
      detail: 'output_language is not supported',
    });
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('failed');
    expect(job.lastError).toBe('output_language is not supported');
    expect(messages.at(-1)).toMatchObject({
      state: 'failed',
      error: 'output_language is not supported',
    });
  });

  it('waits for a fresh token after a 401 and resumes with it', async () => {
    await enqueue(500);
    server.setValidToken('token-2');
    let job = await runUntilSettled();
    expect(jobState(job)).toBe('waiting-auth');
    const session = await sessionOf();
    expect(await session.getAuth()).toBeUndefined();
    await session.setAuth({ token: 'token-2', userId: 'u1' });
    job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
  });

  it('renews a token that passed its hour itself and goes on, with no page open', async () => {
    await enqueue(500);
    // token-1 is still the session's, but its access time has passed: the create call is refused.
    server.fail((m, p) => m === 'POST' && p === '/api/videos', { status: 401, detail: 'x' });
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
    expect(server.stats.refreshes).toBe(1);
    expect((await (await sessionOf()).getAuth())?.token).toBe('token-1-renewed');
  });

  it('keeps the token and retries when the refresh itself fails (503)', async () => {
    await enqueue(500);
    server.fail((m, p) => m === 'POST' && p === '/api/videos', { status: 401, detail: 'x' });
    // Every try of the renewal (the first and its three quick retries) is refused.
    server.fail((m, p) => m === 'GET' && p === '/api/refresh', { status: 503, detail: 'busy' }, 4);
    const [held] = await runOnce();
    expect(jobState(held!)).toBe('waiting-retry');
    expect((await (await sessionOf()).getAuth())?.token).toBe('token-1');
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
  });

  it('goes on at once with a token handed over while the old one was being refused', async () => {
    await enqueue(500);
    const store = await storeOf();
    const session = await sessionOf();
    // The page refreshes its session while the create call is on its way: the server revokes
    // token-1 and the page hands token-2 over before the refusal comes back.
    let refreshed = false;
    const http: Http = async (request) => {
      if (!refreshed) {
        refreshed = true;
        server.setValidToken('token-2');
        await session.handOverAuth('token-2', 'u1');
      }
      return server.http(request);
    };
    const runner = createRunner({
      store,
      session,
      http,
      publish: (m) => messages.push(m),
      random: () => 0.5,
    });
    await runner.run({ maxTransitions: 1 });
    const [refused] = await store.list();
    expect(jobState(refused!)).not.toBe('waiting-auth');
    expect((await session.getAuth())?.token).toBe('token-2');
    expect(server.stats.refreshes).toBe(0); // the handed-over token was taken, not renewed again
    store.close();
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
  });

  it('does not run another user’s job with the current token', async () => {
    await enqueue(500);
    await (await sessionOf()).setAuth({ token: 'token-1', userId: 'someone-else' });
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('waiting-auth');
    expect(server.stats.createCalls).toBe(0);
  });

  it('goes offline on network errors while offline, and resumes when online', async () => {
    await enqueue(500);
    online = false;
    server.fail(() => true, 'network');
    let job = await runUntilSettled();
    expect(jobState(job)).toBe('offline');
    online = true;
    job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
  });

  it('asks for the file again when it could not be kept, then continues with it', async () => {
    const id = await enqueue(2 * PART, 'none');
    let job = await runUntilSettled();
    expect(jobState(job)).toBe('needs-file');
    expect(job.phase).toBe('transferring');
    rememberSessionFile(id, input(2 * PART).file);
    const store = await storeOf();
    await store.update(id, (j) => ({ ...j, hold: 'active' }));
    store.close();
    job = await runUntilSettled();
    expect(jobState(job)).toBe('done');
    expect(server.liveVideos()[0]?.bytes).toBe(2 * PART);
  });

  it('cancel aborts the multipart upload and removes the unfinished video', async () => {
    const id = await enqueue(4 * PART);
    for (let i = 0; i < 6; i += 1) await runOnce();
    const store = await storeOf();
    await store.update(id, (j) => ({
      ...j,
      hold: 'cancelled',
      cancelPending: true,
      nextAttemptAt: 0,
    }));
    store.close();
    const job = await runUntilSettled();
    expect(jobState(job)).toBe('cancelled');
    expect(job.cancelPending).toBe(false);
    expect(server.liveVideos()).toHaveLength(0);
    expect([...server.uploads.values()][0]?.state).toBe('aborted');
  });
});
