import { openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CacheExpiration } from 'workbox-expiration';
import { FakeCacheStorage } from '../testing/fake-cache-storage.ts';
import { deleteUserCaches } from './delete-user-caches.ts';

const PRECACHE = 'workbox-precache-v2-http://localhost/';
let storage: FakeCacheStorage;

/** The expiration plugin's timestamps (workbox-expiration's own IndexedDB), by cache name. */
async function timestamps(): Promise<Record<string, number>> {
  const db = await openDB('workbox-expiration');
  const entries = (await db.getAll('cache-entries')) as { cacheName: string }[];
  db.close();
  const counts: Record<string, number> = {};
  for (const { cacheName } of entries) counts[cacheName] = (counts[cacheName] ?? 0) + 1;
  return counts;
}

/** A cache with one answer, and its timestamp as the expiration plugin writes it. */
async function filled(name: string, url: string): Promise<void> {
  await storage.cache(name).put(url, new Response('x'));
  await new CacheExpiration(name, { maxEntries: 10 }).updateTimestamp(url);
}

beforeEach(async () => {
  storage = new FakeCacheStorage();
  vi.stubGlobal('caches', storage);
  await storage.cache(PRECACHE).put('/index.html', new Response('<html>'));
  await filled('api-v1@7', 'http://localhost/api/videos');
  await filled('images-v1@7', 'http://localhost/assets/data/output/1/thumb.jpg');
  await filled('upload-languages-v2@7', 'http://localhost/api/supported-videos-languages');
  await filled('api-v1@12', 'http://localhost/api/videos/3');
  await storage.cache('upload-languages-v1').put('/api/supported-videos-languages', new Response());
});

afterEach(async () => {
  vi.unstubAllGlobals();
  const db = await openDB('workbox-expiration');
  await db.clear('cache-entries');
  db.close();
});

describe('deleting user caches', () => {
  it('logout deletes every user cache and its expiration timestamps, never the app shell', async () => {
    await deleteUserCaches();
    expect(storage.names()).toEqual([PRECACHE]);
    expect(await timestamps()).toEqual({});
  });

  it("a sign-in deletes everyone else's caches (and an older build's global ones)", async () => {
    await deleteUserCaches('12');
    expect(storage.names()).toEqual([PRECACHE, 'api-v1@12']);
    expect(await timestamps()).toEqual({ 'api-v1@12': 1 });
  });
});
