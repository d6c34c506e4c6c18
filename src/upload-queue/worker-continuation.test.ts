// Long uploads in the service worker (issue 3): a browser ends a worker's event after a few
// minutes, so each run is bounded. The run says when work is due next, the worker tells its open
// pages (src/sw/upload-queue-sw.test.ts), and a page wakes it then (a new event); a file that
// lived only in a stopped worker's memory is handed back by the page that picked it.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QUEUE_HEARTBEAT_MS } from '../config/upload-queue.ts';
import type { QueueWorkerMessage } from './queue-client.ts';
import { buildJob } from './job-factory.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { openJobStore } from './job-store.ts';
import { toJobMessage } from './job-types.ts';
import { openQueueChannel } from './progress-channel.ts';
import { createRunner } from './runner.ts';
import { createFakeUploadServer } from './testing/fake-upload-server.ts';
import { bytesOf, makeFile, useNodeBlobs } from './testing/node-blobs.ts';
import { uploadJob } from './testing/upload-jobs.ts';

describe('a bounded run', () => {
  const PART = 64 * 1024;

  /** A 6-part upload and a runner whose clock moves 1 s with every request. */
  async function setUp() {
    await useNodeBlobs();
    const server = createFakeUploadServer({ partSize: PART });
    const store = await openJobStore(`continuation-${crypto.randomUUID()}`);
    let clock = 1_000_000;
    const file = makeFile(bytesOf(6 * PART, 3), 'long.mp4', 1_700_000_000_000);
    const payload = {
      filename: 'long.mp4',
      video_length: 60,
      video_date: '2024-03-04T05:06:07.000',
      output_language: 'en',
      about_this_video: '',
    };
    const { job, blobs } = await buildJob({ payload, people: [], file }, 'u1', clock, () =>
      Promise.resolve(true),
    );
    await store.add(job, blobs);
    await (await openSessionDb()).setAuth({ token: 'token-1', userId: 'u1' });
    const runner = createRunner({
      store,
      session: await openSessionDb(),
      http: (request) => {
        clock += 1_000;
        return server.http(request);
      },
      publish: () => undefined,
      now: () => clock,
      random: () => 0.5,
      sleep: () => Promise.reject(new Error('a bounded run must not sleep past its deadline')),
      isOnline: () => true,
      singleFormMaxBytes: 1024,
    });
    return { server, store, runner, now: () => clock };
  }

  it('stopped by its deadline mid-transfer, says the rest is due now', async () => {
    const { runner, store, now } = await setUp();
    const result = await runner.run({ deadline: now() + 4_000 });
    const [job] = await store.list();
    expect(job!.phase).not.toBe('done');
    expect(result).toEqual({ transitions: expect.any(Number), workLeft: true, nextWakeAt: now() });
  });

  it('with a job waiting out its backoff, says when the wait ends', async () => {
    const { runner, store, server, now } = await setUp();
    server.fail((method) => method === 'POST', { status: 503 }, 99);
    const result = await runner.run({ deadline: now() + 500 });
    const [job] = await store.list();
    expect(job!.hold).toBe('waiting-retry');
    expect(job!.nextAttemptAt).toBeGreaterThan(now());
    expect(result.nextWakeAt).toBe(job!.nextAttemptAt);
  });
});

describe('a page beside the worker', () => {
  const toWorker = vi.fn<(message: QueueWorkerMessage) => void>();
  let container: ReturnType<typeof workerContainer>;
  let stop: () => void;

  beforeEach(async () => {
    vi.resetModules();
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    toWorker.mockReset();
    container = workerContainer();
    vi.stubGlobal('navigator', { serviceWorker: container, onLine: true });
    const store = await openJobStore();
    for (const job of await store.list()) await store.remove(job.id);
    const { startUploadQueue } = await import('./queue-client.ts');
    stop = startUploadQueue();
    await vi.waitFor(() => expect(toWorker).toHaveBeenCalledWith({ type: 'UPLOAD_QUEUE_WAKE' }));
    toWorker.mockClear();
  });

  afterEach(() => {
    stop();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function workerContainer() {
    return Object.assign(new EventTarget(), {
      controller: { postMessage: toWorker },
      ready: Promise.resolve({}),
      startMessages: vi.fn(),
    });
  }

  const fromWorker = (data: unknown): boolean =>
    container.dispatchEvent(new MessageEvent('message', { data }));

  it('wakes the worker when the work it left is due, not before', async () => {
    fromWorker({ type: 'UPLOAD_QUEUE_CONTINUE', at: Date.now() + 60_000 });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(toWorker).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(toWorker).toHaveBeenCalledWith({ type: 'UPLOAD_QUEUE_WAKE' });
  });

  it('wakes it at once for work already due, once for a repeated word', async () => {
    fromWorker({ type: 'UPLOAD_QUEUE_CONTINUE', at: Date.now() + 5_000 });
    fromWorker({ type: 'UPLOAD_QUEUE_CONTINUE', at: Date.now() - 1 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(toWorker.mock.calls.filter(([m]) => m.type === 'UPLOAD_QUEUE_WAKE')).toHaveLength(1);
  });

  it('wakes the worker every heartbeat while an upload is runnable, and not once none is', async () => {
    // A runner stopped mid-step (a reload, a worker the browser ended) leaves its job 'active'
    // with nobody driving it: the next beat gets it going again, with no page event needed.
    const store = await openJobStore();
    const stranded = uploadJob('job-3', { phase: 'transferring', hold: 'active' });
    await store.add(stranded, { jobId: stranded.id, peopleImages: [] });
    await vi.advanceTimersByTimeAsync(QUEUE_HEARTBEAT_MS);
    await vi.waitFor(() => expect(toWorker).toHaveBeenCalledWith({ type: 'UPLOAD_QUEUE_WAKE' }));
    await store.update('job-3', (job) => ({ ...job, hold: 'failed' }));
    toWorker.mockClear();
    await vi.advanceTimersByTimeAsync(3 * QUEUE_HEARTBEAT_MS);
    expect(toWorker).not.toHaveBeenCalled();
  });

  it('gives a job its file back when the worker lost it, and the job goes on', async () => {
    const { rememberSessionFile } = await import('./file-source.ts');
    const file = new File(['video bytes'], 'harbour.mp4', { type: 'video/mp4' });
    rememberSessionFile('job-1', file);
    const store = await openJobStore();
    const lost = uploadJob('job-1', { phase: 'created', hold: 'needs-file' });
    await store.add({ ...lost, fileKeep: 'none' }, { jobId: lost.id, peopleImages: [] });
    const channel = openQueueChannel();
    channel.postMessage(toJobMessage(lost));
    await vi.waitFor(() =>
      expect(toWorker).toHaveBeenCalledWith({ type: 'PROVIDE_FILE', jobId: 'job-1', file }),
    );
    await vi.waitFor(async () => expect((await store.get('job-1'))?.hold).toBe('active'));
    channel.close();
  });

  it('leaves a job it never held a file for to the user', async () => {
    const store = await openJobStore();
    const lost = uploadJob('job-2', { phase: 'created', hold: 'needs-file' });
    await store.add({ ...lost, fileKeep: 'none' }, { jobId: lost.id, peopleImages: [] });
    const channel = openQueueChannel();
    channel.postMessage(toJobMessage(lost));
    await vi.advanceTimersByTimeAsync(500);
    expect(toWorker).not.toHaveBeenCalled();
    expect((await store.get('job-2'))?.hold).toBe('needs-file');
    channel.close();
  });
});
