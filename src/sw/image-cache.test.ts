import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executeQuotaErrorCallbacks } from 'workbox-core/_private/executeQuotaErrorCallbacks.js';
import type * as UploadQueueConfig from '../config/upload-queue.ts';
import { IMAGE_CACHE_MAX_AGE_SECONDS } from '../config/upload-queue.ts';
import { FakeCacheStorage } from '../testing/fake-cache-storage.ts';
import {
  fetchThrough,
  registeredRoute,
  trackExpirations,
  useServiceWorkerGlobals,
} from '../testing/fake-sw-events.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { registerImageCache } from './image-cache.ts';

// The image route of the service worker with workbox's real CacheFirst and ExpirationPlugin, over
// an in-memory Cache Storage: what is kept, under which key, for whom, and for how long. The
// count limit is lowered to 3 so eviction shows without fetching 600 images.
vi.mock('../config/upload-queue.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof UploadQueueConfig>()),
  IMAGE_CACHE_MAX_ENTRIES: 3,
}));
vi.mock('workbox-routing', () => ({ registerRoute: vi.fn() }));

const ORIGIN = 'http://localhost';
const DAY_MS = 24 * 60 * 60 * 1000;

registerImageCache(ORIGIN);
// Entries expire in the background: the file ends only once every run has (its environment,
// with `self`, is torn down after it).
const expirations = trackExpirations();
afterAll(() => expirations());
const [match, handler] = registeredRoute();

let storage: FakeCacheStorage;
let network: ReturnType<typeof vi.fn<(request: Request) => Promise<Response>>>;
let user = 0;
let userId: string;

const image = (n: number, sig = 'a') =>
  `${ORIGIN}/assets/data/output/${n}/thumb.jpg?exp=1&sig=${sig}`;

/** The page asks for an image; answers the body the worker gave, after its cache work is done. */
async function get(url: string): Promise<string> {
  return (await fetchThrough(handler, new Request(url))).text();
}

const cached = () => storage.cache(`images-v1@${userId}`).urls();

beforeEach(async () => {
  useServiceWorkerGlobals();
  storage = new FakeCacheStorage();
  vi.stubGlobal('caches', storage);
  network = vi.fn(
    async (request: Request) =>
      new Response(`bytes of ${new URL(request.url).pathname}`, {
        headers: { 'Content-Type': 'image/jpeg', Date: new Date().toUTCString() },
      }),
  );
  vi.stubGlobal('fetch', network);
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
  userId = `u${++user}`; // a cache (and expiration records) of its own for each test
  await (await openSessionDb()).setAuth({ token: `token-${userId}`, userId });
});

// Globals stay stubbed after a test: workbox expires entries in the background, after the test
// has its answer (each test file runs in a fresh environment anyway).
afterEach(() => {
  vi.useRealTimers();
});

describe('image cache', { timeout: 30_000 }, () => {
  it('takes thumbnails and frames of this origin only', () => {
    const route = (url: string) => match({ url: new URL(url), request: new Request(url) });
    expect(route(image(1))).toBe(true);
    expect(route(`${ORIGIN}/assets/data/output/1/video.mp4?sig=a`)).toBe(false);
    expect(route('https://elsewhere.example/assets/data/output/1/thumb.jpg')).toBe(false);
  });

  it("fetches an image once, then answers from the user's cache whatever the signature", async () => {
    expect(await get(image(1, 'first'))).toBe('bytes of /assets/data/output/1/thumb.jpg');
    expect(await get(image(1, 'second'))).toBe('bytes of /assets/data/output/1/thumb.jpg');
    expect(network).toHaveBeenCalledTimes(1);
    expect(cached()).toEqual([`${ORIGIN}/assets/data/output/1/thumb.jpg`]);
  });

  it('keeps nothing while nobody is signed in', async () => {
    await (await openSessionDb()).setAuth(undefined);
    await get(image(1));
    await get(image(1));
    expect(network).toHaveBeenCalledTimes(2);
    expect(storage.names()).toEqual([]);
  });

  it('answers a grey placeholder for an image neither cached nor reachable', async () => {
    network.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await get(image(2))).toContain('fill="#d9d9d9"');
  });

  it('keeps a captions track like a picture, and fails it offline instead of a grey picture', async () => {
    const track = (sig: string) => `${ORIGIN}/assets/data/output/1/captions.vtt?exp=1&sig=${sig}`;
    expect(await get(track('first'))).toBe('bytes of /assets/data/output/1/captions.vtt');
    expect(await get(track('second'))).toBe('bytes of /assets/data/output/1/captions.vtt');
    expect(network).toHaveBeenCalledTimes(1);
    expect(cached()).toEqual([`${ORIGIN}/assets/data/output/1/captions.vtt`]);
    network.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(get(`${ORIGIN}/assets/data/output/2/captions.vtt?sig=a`)).rejects.toThrow();
  });

  it('keeps at most the configured count, dropping the least recently used', async () => {
    for (const n of [1, 2, 3, 1, 4]) {
      await get(image(n)); // 1 is used again before 4 arrives: 2 is now the oldest
      vi.advanceTimersByTime(1_000);
    }
    await vi.waitFor(() =>
      expect(cached().map((url) => new URL(url).pathname.split('/')[4])).toEqual(['1', '3', '4']),
    );
    expect(network).toHaveBeenCalledTimes(4);
  });

  it('is emptied when storage runs out (its budget: cached data goes, never the app)', async () => {
    await get(image(1));
    await storage.cache('workbox-precache-v2').put('/index.html', new Response('<html>'));
    // What workbox runs when a cache write fails with QuotaExceededError.
    await executeQuotaErrorCallbacks();
    expect(storage.names()).toEqual(['workbox-precache-v2']);
  });

  it('fetches an image again once it is older than the maximum age', async () => {
    await get(image(1));
    vi.advanceTimersByTime(IMAGE_CACHE_MAX_AGE_SECONDS * 1000 - DAY_MS);
    await get(image(1));
    expect(network).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(DAY_MS + 1_000);
    await get(image(1));
    expect(network).toHaveBeenCalledTimes(2);
  });
});
