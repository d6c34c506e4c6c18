// The stall watchdog through the runner: a request that never answers (a half-open connection)
// is aborted after the stall time and retried, and the upload completes; a slow but steady one is
// left alone; a user's cancel during a hung request is a cancel, not a retry.
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeUploadServer, type FakeUploadServer } from './testing/fake-upload-server.ts';
import { bytesOf, makeFile, useNodeBlobs } from './testing/node-blobs.ts';
import { buildJob } from './job-factory.ts';
import type { Http, HttpRequest } from './http.ts';
import { openSessionDb, type SessionDb } from '../lib/session-db.ts';
import { openJobStore, type JobStore } from './job-store.ts';
import type { JobMessage } from './job-types.ts';
import type { WatchdogLimits } from './request-watchdog.ts';
import { createRunner } from './runner.ts';

const PART = 64 * 1024;
const SIZE = 3 * PART;
const STALL_MS = 150;

let dbName: string;
let server: FakeUploadServer;
let messages: JobMessage[];

beforeEach(async () => {
  await useNodeBlobs();
  dbName = `watchdog-test-${crypto.randomUUID()}`;
  server = createFakeUploadServer({ partSize: PART });
  messages = [];
});

async function enqueue(): Promise<{ store: JobStore; jobId: string }> {
  const store = await openJobStore(dbName);
  const file = makeFile(bytesOf(SIZE, 5), 'train.mp4', 1_700_000_000_000);
  const payload = {
    filename: 'train.mp4',
    video_length: 30,
    video_date: '2024-03-04T05:06:07.000',
    output_language: 'en',
    about_this_video: '',
  };
  const { job, blobs } = await buildJob({ payload, people: [], file }, 'u1', 0, () =>
    Promise.resolve(true),
  );
  await store.add(job, blobs);
  await (await openSessionDb()).setAuth({ token: 'token-1', userId: 'u1' });
  return { store, jobId: job.id };
}

const isPartPut = (request: HttpRequest): boolean =>
  request.method === 'PUT' && request.url.includes('/part/');

/** Never answers (a half-open connection); only an abort ends it. */
const hang = (request: HttpRequest): Promise<never> =>
  new Promise((_, reject) =>
    request.signal?.addEventListener('abort', () => reject(request.signal?.reason), {
      once: true,
    }),
  );

let session: SessionDb;
beforeEach(async () => {
  session = await openSessionDb();
});

function runner(store: JobStore, http: Http, watchdog: Partial<WatchdogLimits> = {}) {
  return createRunner({
    store,
    session,
    http,
    publish: (m) => messages.push(m),
    random: () => 0,
    sleep: () => Promise.resolve(), // backoff waits take no time here; stalls take real time
    isOnline: () => true,
    singleFormMaxBytes: 1024,
    partsInFlight: 1,
    watchdog: { stallMs: STALL_MS, deadlineBaseMs: STALL_MS, minBytesPerSecond: 1e9, ...watchdog },
  });
}

const retries = (): JobMessage[] => messages.filter((m) => m.state === 'waiting-retry');

describe('stall watchdog', () => {
  it.each([
    ['with upload progress (XMLHttpRequest)', true],
    ['without upload progress (fetch)', false],
  ])('a part request that never answers is aborted and re-sent, %s', async (_, streams) => {
    const { store } = await enqueue();
    const partCalls: number[] = [];
    const http: Http = (request) => {
      if (!isPartPut(request)) return server.http(request);
      partCalls.push(Date.now());
      return partCalls.length === 2 ? hang(request) : server.http(request);
    };
    http.reportsUploadProgress = () => streams;
    await runner(store, http).run();
    expect(server.liveVideos()).toHaveLength(1);
    expect(server.liveVideos()[0]?.bytes).toBe(SIZE);
    expect(server.liveVideos()[0]?.status).toBe('in_progress');
    // Part 2 hung and was sent again after the stall time; the others went once.
    expect(partCalls).toHaveLength(4);
    expect(partCalls[2]! - partCalls[1]!).toBeGreaterThanOrEqual(STALL_MS - 5);
    expect([...server.partPutsByNumber().values()]).toEqual([1, 1, 1]);
    expect(retries()).toHaveLength(1);
    expect(retries()[0]?.error).toMatch(/No progress/);
    expect(await store.list()).toHaveLength(0);
    store.close();
  });

  it('leaves alone a request that progresses slowly but steadily (XMLHttpRequest)', async () => {
    const { store } = await enqueue();
    let partCalls = 0;
    const http: Http = async (request) => {
      if (!isPartPut(request)) return server.http(request);
      partCalls += 1;
      // Each part takes twice the stall time, with a progress event every sixth of it.
      const size = (request.body as Blob).size;
      for (let tick = 1; tick <= 12; tick += 1) {
        await new Promise((resolve) => setTimeout(resolve, STALL_MS / 6));
        request.signal?.throwIfAborted(); // as a real transport: an abort ends the request
        request.onUploadProgress?.((size * tick) / 12, size);
      }
      return server.http(request);
    };
    http.reportsUploadProgress = () => true;
    await runner(store, http).run();
    expect(partCalls).toBe(3);
    expect(retries()).toHaveLength(0);
    expect(server.liveVideos()[0]?.bytes).toBe(SIZE);
    store.close();
  });

  it('a cancel during a hung request cancels the upload (no retry)', async () => {
    const { store, jobId } = await enqueue();
    let hung: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const http: Http = (request) => {
      if (!isPartPut(request)) return server.http(request);
      hung();
      return hang(request);
    };
    http.reportsUploadProgress = () => true;
    // The stall time is far away: only the cancel can end the hung request in time.
    const queue = runner(store, http, { stallMs: 60_000, deadlineBaseMs: 60_000 });
    const running = queue.run();
    await hanging;
    await store.update(jobId, (j) => ({
      ...j,
      hold: 'cancelled',
      cancelPending: true,
      nextAttemptAt: 0,
    }));
    queue.abortJob(jobId);
    await running;
    expect(retries()).toHaveLength(0);
    expect(messages.at(-1)?.state).toBe('cancelled');
    expect(server.liveVideos()).toHaveLength(0);
    expect([...server.uploads.values()][0]?.state).toBe('aborted');
    store.close();
  });
});
