// A batch through the real queue: the batch client writes it to IndexedDB (fake-indexeddb), the
// runner sends it to a fake upload server, one runner life after another. What a user of the
// batch panel relies on: each file becomes exactly one video, the people images are stored once,
// the batch remembers each file's video after its job has gone, and pause, resume, remove, cancel
// and retry do what they say.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openSessionDb } from '../lib/session-db.ts';
import {
  BatchTooLargeError,
  cancelBatch,
  enqueueBatch,
  listBatches,
  pauseBatch,
  removeFromBatch,
  resumeBatch,
  retryFailed,
  type BatchInput,
} from './batch-client.ts';
import { batchBlobsKey } from './batch-types.ts';
import { openJobStore, type JobStore } from './job-store.ts';
import type { Http } from './http.ts';
import { createRunner } from './runner.ts';
import { createFakeUploadServer, type FakeUploadServer } from './testing/fake-upload-server.ts';
import { emptySignedInStore } from './testing/idle-queue-host.ts';
import { bytesOf, makeFile, useNodeBlobs } from './testing/node-blobs.ts';

vi.mock('./queue-host.ts', () => import('./testing/idle-queue-host.ts'));

let store: JobStore;
let server: FakeUploadServer;

beforeEach(async () => {
  await useNodeBlobs();
  store = await emptySignedInStore();
  for (const batch of await store.listBatches()) await store.removeBatch(batch.id);
  server = createFakeUploadServer({ token: 'token-1' });
});

function batchOf(count: number, people = 1): BatchInput {
  return {
    details: { output_language: 'en', about_this_video: 'The summer archive' },
    people: Array.from({ length: people }, (_, i) => ({
      name: `Person ${i + 1}`,
      image: makeFile(bytesOf(100, i + 3), `p${i}.png`, 1, 'image/png'),
    })),
    files: Array.from({ length: count }, (_, i) => ({
      file: makeFile(bytesOf(500 + i, i + 11), `clip-${i}.mp4`, 1_700_000_000_000 + i),
      path: `summer/clip-${i}.mp4`,
      durationSeconds: 10 + i,
      videoDate: '2024-07-01T10:00:00.000',
    })),
    skipped: [
      { path: 'summer/notes.txt', size: 12, skipped: 'not-a-video' },
      {
        path: 'summer/again.mp4',
        size: 900,
        skipped: 'in-archive',
        inArchive: { id: 'v9', title: 'Harbour', filename: 'again.mp4' },
      },
    ],
  };
}

/** Runs the queue until nothing is runnable (one runner life, as a page or the worker would). */
async function runQueue(options: { http?: Http; jobsAtOnce?: number } = {}): Promise<void> {
  const jobs = await openJobStore();
  const runner = createRunner({
    store: jobs,
    session: await openSessionDb(),
    http: options.http ?? server.http,
    publish: () => undefined,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5))),
    isOnline: () => true,
    singleFormMaxBytes: 1024,
    jobsAtOnce: options.jobsAtOnce ?? 1,
  });
  await runner.run({ maxTransitions: 200 });
  // One more look: the runner forgets finished jobs (writing their videos into the batch) there.
  await runner.run({ maxTransitions: 1 });
  jobs.close();
}

describe('upload batch', () => {
  it('makes one video of each file, stores the people images once, and keeps each video in the batch', async () => {
    const batchId = await enqueueBatch(batchOf(3));
    const jobs = await store.list();
    expect(jobs).toHaveLength(3);
    expect(jobs.every((job) => job.batchId === batchId)).toBe(true);
    for (const job of jobs) expect((await store.getBlobs(job.id))?.peopleImages).toEqual([]);
    expect((await store.getBlobs(batchBlobsKey(batchId)))?.peopleImages).toHaveLength(1);

    await runQueue();

    const videos = server.liveVideos();
    expect(videos).toHaveLength(3);
    expect(server.stats.creates).toBe(3);
    expect(videos.map((v) => v.peopleNames)).toEqual([['Person 1'], ['Person 1'], ['Person 1']]);
    expect(videos.map((v) => (v.payload as { file_size: number }).file_size).sort()).toEqual([
      500, 501, 502,
    ]);
    expect(await store.list()).toEqual([]);
    const [batch] = await listBatches();
    const uploaded = batch!.entries.filter((e) => e.jobId);
    expect(uploaded.map((e) => e.videoId).sort()).toEqual(videos.map((v) => v.id).sort());
    expect(batch!.entries.filter((e) => e.skipped).map((e) => e.path)).toEqual([
      'summer/notes.txt',
      'summer/again.mp4',
    ]);
  });

  it('sends nothing while paused, and everything once resumed', async () => {
    const batchId = await enqueueBatch(batchOf(2));
    await pauseBatch(batchId);
    expect((await store.list()).map((j) => j.hold)).toEqual(['paused', 'paused']);
    await runQueue();
    expect(server.stats.createCalls).toBe(0);

    await resumeBatch(batchId);
    await runQueue();
    expect(server.liveVideos()).toHaveLength(2);
  });

  it('leaves out a removed file and cancels the rest, keeping what was already uploaded', async () => {
    const batchId = await enqueueBatch(batchOf(3));
    const [first, second] = await store.list();
    await removeFromBatch(batchId, second!.id);
    await pauseBatch(batchId);
    await store.update(first!.id, (j) => ({ ...j, hold: 'active' }));
    await runQueue();
    expect(server.liveVideos()).toHaveLength(1);

    await cancelBatch(batchId);
    await runQueue();
    expect(server.liveVideos()).toHaveLength(1);
    const [batch] = await listBatches();
    const states = batch!.entries
      .filter((e) => e.jobId)
      .map((e) => (e.videoId ? 'video' : e.removed));
    expect(states).toEqual(['video', true, true]);
  });

  it('retries the failed files of the batch', async () => {
    const batchId = await enqueueBatch(batchOf(2));
    server.fail((method, path) => method === 'POST' && path === '/api/videos', { status: 422 }, 1);
    await runQueue();
    expect(server.liveVideos()).toHaveLength(1);
    expect((await store.list()).map((j) => j.hold)).toEqual(['failed']);

    await retryFailed(batchId);
    await runQueue();
    expect(server.liveVideos()).toHaveLength(2);
  });

  it('advances three files at once, never more, and still makes each video once', async () => {
    await enqueueBatch(batchOf(7));
    let open = 0;
    let most = 0;
    const slow: Http = async (request) => {
      open += 1;
      most = Math.max(most, open);
      await new Promise((resolve) => setTimeout(resolve, 5));
      try {
        return await server.http(request);
      } finally {
        open -= 1;
      }
    };
    await runQueue({ http: slow, jobsAtOnce: 3 });
    expect(most).toBe(3);
    expect(server.stats.creates).toBe(7);
    expect(server.liveVideos().map((v) => v.status)).toEqual(Array(7).fill('in_progress'));
  });

  it('refuses a batch of more than 10,000 files and queues nothing', async () => {
    const input = batchOf(1);
    input.skipped = Array.from({ length: 10_000 }, (_, i) => ({
      path: `x/${i}.txt`,
      size: 1,
      skipped: 'not-a-video' as const,
    }));
    await expect(enqueueBatch(input)).rejects.toBeInstanceOf(BatchTooLargeError);
    expect(await store.list()).toEqual([]);
    expect(await listBatches()).toEqual([]);
  });
});
