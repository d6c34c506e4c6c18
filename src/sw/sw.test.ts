import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as OfflineConfig from '../config/offline.ts';
import { FakeCacheStorage } from '../testing/fake-cache-storage.ts';
import { openJobStore } from '../upload-queue/job-store.ts';
import { uploadJob } from '../upload-queue/testing/upload-jobs.ts';

// The worker's own message handling (src/sw/sw.ts), with workbox's routing and the caches' routes
// left out: SKIP_WAITING never activates a new version while an upload runs, LOGOUT and AUTH
// delete user caches.
vi.mock('../config/offline.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof OfflineConfig>()),
  UPDATE_IDLE_POLL_MS: 10,
}));
vi.mock('workbox-precaching', () => ({
  precacheAndRoute: vi.fn(),
  cleanupOutdatedCaches: vi.fn(),
  createHandlerBoundToURL: vi.fn(),
}));
vi.mock('workbox-routing', () => ({ NavigationRoute: vi.fn(), registerRoute: vi.fn() }));
vi.mock('./api-cache.ts', () => ({ registerApiCache: vi.fn() }));
vi.mock('./image-cache.ts', () => ({ registerImageCache: vi.fn() }));
vi.mock('./upload-queue-sw.ts', () => ({ installUploadQueue: vi.fn() }));

type Listener = (event: unknown) => void;
const listeners = new Map<string, Listener[]>();
const skipWaiting = vi.fn(async () => undefined);
const worker = {
  __WB_MANIFEST: [],
  location: { origin: 'http://localhost' },
  skipWaiting,
  addEventListener: (type: string, listener: Listener) =>
    listeners.set(type, [...(listeners.get(type) ?? []), listener]),
};

/** Sends a message as a page would, and answers what the worker waits for. */
function message(data: unknown): Promise<unknown> {
  const waits: Promise<unknown>[] = [];
  const event = { data, waitUntil: (promise: Promise<unknown>) => waits.push(promise) };
  for (const listener of listeners.get('message') ?? []) listener(event);
  return Promise.all(waits);
}

let storage: FakeCacheStorage;

beforeAll(async () => {
  vi.stubGlobal('self', worker);
  await import('./sw.ts');
});

afterAll(() => vi.unstubAllGlobals());

beforeEach(async () => {
  skipWaiting.mockClear();
  const store = await openJobStore();
  for (const job of await store.list()) await store.remove(job.id);
  storage = new FakeCacheStorage();
  vi.stubGlobal('caches', storage);
  for (const name of ['workbox-precache-v2-http://localhost/', 'api-v1@7', 'images-v1@12']) {
    await storage.cache(name).put('/x', new Response('x'));
  }
});

describe('service worker messages', { timeout: 30_000 }, () => {
  it('SKIP_WAITING activates the new version at once when no upload runs', async () => {
    const store = await openJobStore();
    await store.put(uploadJob('failed', { phase: 'transferring', hold: 'failed' }));
    await message({ type: 'SKIP_WAITING' });
    expect(skipWaiting).toHaveBeenCalledTimes(1);
  });

  it('SKIP_WAITING waits while an upload runs (a page that did not wait, another tab)', async () => {
    const store = await openJobStore();
    await store.put(uploadJob('running', { phase: 'transferring', hold: 'active' }));
    let done = false;
    const handled = message({ type: 'SKIP_WAITING' }).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(skipWaiting).not.toHaveBeenCalled();
    expect(done).toBe(false);

    await store.update('running', (job) => ({ ...job, phase: 'done' }));
    await handled;
    expect(skipWaiting).toHaveBeenCalledTimes(1);
  });

  it('LOGOUT deletes every user cache; AUTH every cache not of the user signing in', async () => {
    await message({ type: 'AUTH', userId: '7', token: 'token-7' });
    expect(storage.names()).toEqual(['workbox-precache-v2-http://localhost/', 'api-v1@7']);
    await message({ type: 'LOGOUT' });
    expect(storage.names()).toEqual(['workbox-precache-v2-http://localhost/']);
  });
});
