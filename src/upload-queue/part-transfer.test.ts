// The multipart transfer with several parts in flight: how many go at once, that each part is
// sent once, and what an interruption costs (at most one part re-sent per part in flight).
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeUploadServer, type FakeUploadServer } from './testing/fake-upload-server.ts';
import { bytesOf, makeFile, useNodeBlobs } from './testing/node-blobs.ts';
import { buildJob } from './job-factory.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { openJobStore } from './job-store.ts';
import { jobState, type JobMessage, type UploadJob } from './job-types.ts';
import { createRunner, type RunOptions } from './runner.ts';

const PART = 64 * 1024;
const IN_FLIGHT = 3;

let dbName: string;
let server: FakeUploadServer;
let clock: number;

beforeEach(async () => {
  await useNodeBlobs();
  dbName = `part-transfer-test-${crypto.randomUUID()}`;
  server = createFakeUploadServer({ partSize: PART });
  clock = 1_000_000;
});

async function enqueue(size: number): Promise<void> {
  const store = await openJobStore(dbName);
  const file = makeFile(bytesOf(size, 9), 'walk.mp4', 1_700_000_000_000);
  const payload = {
    filename: 'walk.mp4',
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
  store.close();
}

/**
 * A fresh runner on a fresh connection (nothing carried over), run with `options`. Answers the
 * job's state: as stored, or as last published once a finished job has left the store.
 */
async function runFresh(options: RunOptions = {}): Promise<UploadJob | JobMessage> {
  const store = await openJobStore(dbName);
  let last: JobMessage | undefined;
  const runner = createRunner({
    store,
    session: await openSessionDb(),
    http: server.http,
    publish: (m) => (last = m),
    now: () => clock,
    random: () => 0,
    sleep: (ms) => {
      clock += ms;
      return Promise.resolve();
    },
    isOnline: () => true,
    singleFormMaxBytes: 1024,
    partsInFlight: IN_FLIGHT,
  });
  await runner.run(options);
  const [job] = await store.list();
  store.close();
  const answer = job ?? last;
  if (!answer) throw new Error('the job was lost');
  return answer;
}

const stateOf = (job: UploadJob | JobMessage): string =>
  'type' in job ? job.state : jobState(job);
const stored = (job: UploadJob | JobMessage): UploadJob => {
  if ('type' in job) throw new Error(`the job is not stored (${job.state})`);
  return job;
};

/** Holds each part until released; released parts answer in the order released. */
function gate() {
  const waiting = new Map<number, () => void>();
  let changed: () => void = () => undefined;
  server.setPartGate(
    (n) =>
      new Promise<void>((resolve) => {
        waiting.set(n, resolve);
        changed();
      }),
  );
  return {
    /** Resolves once exactly these parts wait at the gate. */
    async waitingAre(parts: number[]): Promise<void> {
      const same = (): boolean => [...waiting.keys()].sort((a, b) => a - b).join() === parts.join();
      while (!same()) await new Promise<void>((resolve) => (changed = resolve));
    },
    release(n: number): void {
      waiting.get(n)?.();
      waiting.delete(n);
    },
    open(): void {
      server.setPartGate(undefined);
      for (const n of [...waiting.keys()]) this.release(n);
    },
  };
}

describe('multipart transfer with parts in flight', () => {
  it('keeps three parts on the wire and sends each part once', async () => {
    await enqueue(7 * PART + 5);
    server.setPartGate(() => new Promise((resolve) => setTimeout(resolve, 2))); // a slow network
    const job = await runFresh();
    expect(stateOf(job)).toBe('done');
    expect(server.stats.maxPartsInFlight).toBe(IN_FLIGHT);
    expect([...server.partPutsByNumber().values()]).toEqual(Array(8).fill(1));
    expect(server.liveVideos()[0]).toMatchObject({ bytes: 7 * PART + 5, status: 'in_progress' });
  });

  it('records each part as it lands, whatever the order', async () => {
    await enqueue(4 * PART);
    const parts = gate();
    const abort = new AbortController();
    const running = runFresh({ signal: abort.signal });
    await parts.waitingAre([1, 2, 3]);
    parts.release(3); // the last in flight answers first
    await parts.waitingAre([1, 2, 4]);
    parts.release(2);
    await parts.waitingAre([1, 4]);
    abort.abort(); // the tab closes with parts 1 and 4 on their way
    const stopped = stored(await running);
    expect(stopped.multipart?.parts.map((p) => p.partNumber)).toEqual([2, 3]);
    expect(stopped.bytesDone).toBe(2 * PART);
  });

  it('an interruption re-sends at most one part per part in flight', async () => {
    await enqueue(9 * PART);
    // Part 5's answer is lost although the server kept it: listing finds it, it is not re-sent.
    server.fail((m, p) => m === 'PUT' && p.endsWith('/5'), 'lose-response');
    const parts = gate();
    const abort = new AbortController();
    const running = runFresh({ signal: abort.signal });
    for (const n of [1, 2, 3, 4]) {
      await parts.waitingAre([n, n + 1, n + 2]);
      parts.release(n);
    }
    await parts.waitingAre([5, 6, 7]);
    parts.release(5); // its answer is lost: no new part starts after a failure
    await parts.waitingAre([6, 7]);
    abort.abort(); // killed with parts 6 and 7 in flight
    await running;
    parts.open();
    const job = await runFresh();
    expect(stateOf(job)).toBe('done');
    const sends = server.partPutsByNumber();
    const resent = [...sends].filter(([, count]) => count > 1).map(([n]) => n);
    expect(resent).toEqual([6, 7]);
    expect(resent.length).toBeLessThanOrEqual(IN_FLIGHT);
    expect(server.liveVideos()[0]?.bytes).toBe(9 * PART);
  });

  it('a failed part stops new parts; the ones in flight are kept and the rest follows later', async () => {
    await enqueue(6 * PART);
    server.fail((m, p) => m === 'PUT' && p.endsWith('/2'), { status: 503 });
    // The deadline comes before the retry is due (backoff starts at 1 s).
    let job = await runFresh({ deadline: clock + 500 });
    expect(stateOf(job)).toBe('waiting-retry');
    // Parts 1 and 3 were on their way with 2 and landed; 4 to 6 were not started.
    expect(stored(job).multipart?.parts.map((p) => p.partNumber)).toEqual([1, 3]);
    const sent = () => [...server.partPutsByNumber()].sort(([a], [b]) => a - b);
    expect(sent()).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    job = await runFresh();
    expect(stateOf(job)).toBe('done');
    expect(sent().map(([, count]) => count)).toEqual([1, 2, 1, 1, 1, 1]);
  });
});
