import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as OfflineConfig from '../config/offline.ts';
import {
  ANSWER_OWNER_HEADER,
  API_CACHE_MAX_AGE_SECONDS,
  API_NETWORK_TIMEOUT_SECONDS,
  REFRESH_HEADER,
} from '../config/offline.ts';
import { FakeCacheStorage } from '../testing/fake-cache-storage.ts';
import {
  FakeExtendableEvent,
  fetchThrough,
  registeredRoute,
  trackExpirations,
  useServiceWorkerGlobals,
} from '../testing/fake-sw-events.ts';
import { openSessionDb } from '../lib/session-db.ts';
import { registerApiCache } from './api-cache.ts';

// The API route of the service worker with workbox's real NetworkFirst and ExpirationPlugin, over
// an in-memory Cache Storage: which answers are kept, for whom, how long, and when the cached one
// is shown. The count limit is lowered to 3 (eviction shows without 200 requests) and the network
// timeout to 0.3 s.
vi.mock('../config/offline.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof OfflineConfig>()),
  API_CACHE_MAX_ENTRIES: 3,
  API_NETWORK_TIMEOUT_SECONDS: 0.3,
}));
vi.mock('workbox-routing', () => ({ registerRoute: vi.fn() }));

const ORIGIN = 'http://localhost';
const DAY_MS = 24 * 60 * 60 * 1000;

registerApiCache(ORIGIN);
// Entries expire in the background: the file ends only once every run has (its environment,
// with `self`, is torn down after it).
const expirations = trackExpirations();
afterAll(() => expirations());
const [match, handler] = registeredRoute();

let storage: FakeCacheStorage;
let network: ReturnType<typeof vi.fn<(request: Request) => Promise<Response>>>;
let user = 0;
let userId: string;
let token: string;
/** Whom the server says its answers are for (normally the token's user). */
let answerOwner: () => string | undefined;

/** The server's answer: the path asked for, made for `answerOwner()`. */
function serverAnswer(request: Request): Response {
  const owner = answerOwner();
  return Response.json(
    { path: new URL(request.url).pathname, served: Date.now() },
    {
      headers: {
        Date: new Date().toUTCString(),
        ...(owner === undefined ? {} : { [ANSWER_OWNER_HEADER]: owner }),
      },
    },
  );
}

const offline = () => network.mockRejectedValue(new TypeError('Failed to fetch'));

/** The page's GET, with the `as` token (none for null). */
function pageRequest(path: string, as: string | null = token, extra: HeadersInit = {}): Request {
  const headers = new Headers(extra);
  if (as !== null) headers.set('Authorization', `Bearer ${as}`);
  return new Request(`${ORIGIN}${path}`, { headers });
}

/** Asks the worker; answers the body, once the worker's cache work is done too. */
async function get(path: string, as: string | null = token): Promise<unknown> {
  return (await fetchThrough(handler, pageRequest(path, as))).json();
}

const cachedPaths = () =>
  storage
    .cache(`api-v1@${userId}`)
    .urls()
    .map((url) => new URL(url).pathname + new URL(url).search);

beforeEach(async () => {
  useServiceWorkerGlobals();
  storage = new FakeCacheStorage();
  vi.stubGlobal('caches', storage);
  network = vi.fn(async (request: Request) => serverAnswer(request));
  vi.stubGlobal('fetch', network);
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
  userId = `u${++user}`; // a cache (and expiration records) of its own for each test
  token = `token-${userId}`;
  answerOwner = () => userId;
  await (await openSessionDb()).setAuth({ token, userId });
});

// Globals stay stubbed after a test: workbox expires entries in the background, after the test
// has its answer (each test file runs in a fresh environment anyway).
afterEach(() => {
  vi.useRealTimers();
});

describe('API answers kept for offline reading', { timeout: 30_000 }, () => {
  it('takes the browsing GETs of this origin only', () => {
    const route = (path: string, method = 'GET') =>
      match({ url: new URL(path, ORIGIN), request: new Request(`${ORIGIN}${path}`, { method }) });
    expect(route('/api/videos?page=2')).toBe(true);
    expect(route('/api/refresh')).toBe(false);
    expect(route('/api/videos', 'POST')).toBe(false);
  });

  it("keeps the signed-in user's answer in their cache and shows it offline", async () => {
    const online = await get('/api/videos?page=2');
    expect(cachedPaths()).toEqual(['/api/videos?page=2']);
    offline();
    expect(await get('/api/videos?page=2')).toEqual(online);
  });

  it("never keeps an answer the server made for someone else, or one without a user's token", async () => {
    answerOwner = () => 'someone-else';
    await get('/api/videos');
    answerOwner = () => undefined;
    await get('/api/profile');
    answerOwner = () => userId;
    await get('/api/videos/1', null);
    expect(cachedPaths()).toEqual([]);
    expect(storage.names().filter((name) => name !== `api-v1@${userId}`)).toEqual([]);
  });

  it("gives a cached answer only to a request with the signed-in user's token", async () => {
    await get('/api/videos/1');
    offline();
    await expect(get('/api/videos/1', 'forged-token')).rejects.toThrow();
    await expect(get('/api/videos/1', null)).rejects.toThrow();
    expect(await get('/api/videos/1')).toMatchObject({ path: '/api/videos/1' });
  });

  it('keeps nothing while nobody is signed in', async () => {
    await (await openSessionDb()).setAuth(undefined);
    await get('/api/videos');
    expect(storage.names()).toEqual([]);
  });

  it('keeps at most the configured count, dropping the least recently stored', async () => {
    for (const page of [1, 2, 3, 4]) {
      await get(`/api/videos?page=${page}`);
      vi.advanceTimersByTime(1_000);
    }
    await vi.waitFor(() =>
      expect(cachedPaths()).toEqual([
        '/api/videos?page=2',
        '/api/videos?page=3',
        '/api/videos?page=4',
      ]),
    );
  });

  it('shows an answer offline up to the maximum age, not after', async () => {
    await get('/api/videos/1');
    offline();
    vi.advanceTimersByTime(API_CACHE_MAX_AGE_SECONDS * 1000 - DAY_MS);
    expect(await get('/api/videos/1')).toMatchObject({ path: '/api/videos/1' });
    vi.advanceTimersByTime(DAY_MS + 1_000);
    await expect(get('/api/videos/1')).rejects.toThrow();
  });

  it('shows the cached answer when the network takes longer than the timeout', async () => {
    const first = await get('/api/videos');
    network.mockImplementation(() => new Promise<Response>(() => undefined)); // never answers
    let answered = false;
    const answer = handler({
      request: pageRequest('/api/videos'),
      event: new FakeExtendableEvent('fetch'),
    }).then((response) => {
      answered = true;
      return response.json();
    });
    await new Promise((resolve) => setTimeout(resolve, (API_NETWORK_TIMEOUT_SECONDS * 1000) / 3));
    expect(answered).toBe(false);
    expect(await answer).toEqual(first);
  });

  it('waits for the network on a refresh of an answer on screen, and falls back only offline', async () => {
    const first = (await get('/api/videos')) as { served: number };
    vi.setSystemTime(Date.now() + 60_000);
    let release: () => void = () => undefined;
    network.mockImplementation(
      (request) =>
        new Promise<Response>((resolve) => {
          release = () => resolve(serverAnswer(request));
        }),
    );
    const refresh = pageRequest('/api/videos', token, { [REFRESH_HEADER]: '1' });
    const event = new FakeExtendableEvent('fetch');
    const answer = handler({ request: refresh, event }).then(
      (response) => response.json() as Promise<{ served: number }>,
    );
    // Three times the timeout: a first load would have had the cached copy long ago.
    await new Promise((resolve) => setTimeout(resolve, API_NETWORK_TIMEOUT_SECONDS * 3000));
    release();
    expect((await answer).served).toBeGreaterThan(first.served);
    await event.settled();

    offline();
    const fallback = handler({
      request: pageRequest('/api/videos', token, { [REFRESH_HEADER]: '1' }),
      event: new FakeExtendableEvent('fetch'),
    });
    expect(((await (await fallback).json()) as { served: number }).served).toBeGreaterThan(
      first.served,
    );
  });
});
