// Finished uploads do not stay in IndexedDB: a done job, or a cancelled one whose server clean-up
// was made, is removed with its blobs on the runner's next look, after its last state went out.
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeUploadServer, type FakeUploadServer } from './testing/fake-upload-server.ts';
import { bytesOf, makeFile, useNodeBlobs } from './testing/node-blobs.ts';
import { buildJob } from './job-factory.ts';
import { openSessionDb, type SessionDb } from '../lib/session-db.ts';
import { openJobStore, type JobStore } from './job-store.ts';
import type { JobMessage, UploadJob } from './job-types.ts';
import { createRunner } from './runner.ts';

const PART = 64 * 1024;

let store: JobStore;
let server: FakeUploadServer;
let messages: JobMessage[];

beforeEach(async () => {
  await useNodeBlobs();
  store = await openJobStore(`finished-jobs-test-${crypto.randomUUID()}`);
  server = createFakeUploadServer({ partSize: PART });
  messages = [];
  await (await openSessionDb()).setAuth({ token: 'token-1', userId: 'u1' });
});

async function enqueue(size: number, ownerId = 'u1'): Promise<UploadJob> {
  const file = makeFile(bytesOf(size, 3), 'pier.mp4', 1_700_000_000_000);
  const image = makeFile(bytesOf(50, 4), 'aiko.png', 1, 'image/png');
  const payload = {
    filename: 'pier.mp4',
    video_length: 8,
    video_date: '2024-03-04T05:06:07.000',
    output_language: 'en',
    about_this_video: '',
  };
  const { job, blobs } = await buildJob(
    { payload, people: [{ name: 'Aiko', image }], file },
    ownerId,
    0,
    () => Promise.resolve(true),
  );
  await store.add(job, blobs);
  return job;
}

let session: SessionDb;
beforeEach(async () => {
  session = await openSessionDb();
});

function runner() {
  return createRunner({
    store,
    session,
    http: server.http,
    publish: (m) => messages.push(m),
    random: () => 0,
    sleep: () => Promise.resolve(),
    isOnline: () => true,
    singleFormMaxBytes: 1024,
  });
}

describe('finished uploads leave IndexedDB', () => {
  it('removes a done job and its blobs once "done" went out', async () => {
    const job = await enqueue(3 * PART);
    await runner().run();
    expect(messages.filter((m) => m.jobId === job.id).at(-1)?.state).toBe('done');
    expect(server.liveVideos()[0]?.status).toBe('in_progress');
    expect(await store.list()).toEqual([]);
    expect(await store.getBlobs(job.id)).toBeUndefined();
  });

  it('removes a cancelled job after the server clean-up, not before', async () => {
    const job = await enqueue(3 * PART);
    await runner().run({ maxTransitions: 4 }); // created, people, multipart started, one part
    await store.update(job.id, (j) => ({ ...j, hold: 'cancelled', cancelPending: true }));
    server.fail((m) => m === 'DELETE', { status: 503 }); // the clean-up fails once
    await runner().run({ maxTransitions: 1 });
    expect((await store.get(job.id))?.cancelPending).toBe(true); // still owed: kept
    expect(await store.getBlobs(job.id)).toBeDefined();
    await runner().run();
    expect(server.liveVideos()).toHaveLength(0);
    expect(await store.list()).toEqual([]);
    expect(await store.getBlobs(job.id)).toBeUndefined();
  });

  it('keeps failed uploads (the user may retry) and sweeps finished ones of any user', async () => {
    const failed = await enqueue(500);
    server.fail((m, p) => m === 'POST' && p === '/api/videos', { status: 422, detail: 'no' });
    await runner().run();
    // Left by an earlier session: another user's finished upload.
    const old = await enqueue(500, 'someone-else');
    await store.update(old.id, (j) => ({ ...j, phase: 'done' }));
    await runner().run();
    expect((await store.list()).map((j) => [j.id, j.hold])).toEqual([[failed.id, 'failed']]);
    expect(await store.getBlobs(old.id)).toBeUndefined();
  });
});
