/// <reference lib="webworker" />
// Thumbnails and frames: cache-first, bounded by count and age, keyed without the signature, in a
// cache of the signed-in user. Without a signed-in user images pass through uncached.
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { IMAGE_CACHE, PLACEHOLDER_SVG, imageCacheKey, isCachedImage } from './image-cache-rules.ts';
import { currentAuth } from './sw-session.ts';
import { userCacheName } from './user-caches.ts';

const placeholder = (): Response =>
  new Response(PLACEHOLDER_SVG, { headers: { 'Content-Type': 'image/svg+xml' } });

const strategies = new Map<string, CacheFirst>();

function strategyFor(userId: string): CacheFirst {
  let strategy = strategies.get(userId);
  if (!strategy) {
    strategy = new CacheFirst({
      cacheName: userCacheName(IMAGE_CACHE.cacheName, userId),
      matchOptions: { ignoreSearch: true, ignoreVary: true },
      plugins: [
        new ExpirationPlugin({
          maxEntries: IMAGE_CACHE.maxEntries,
          maxAgeSeconds: IMAGE_CACHE.maxAgeSeconds,
          purgeOnQuotaError: IMAGE_CACHE.purgeOnQuotaError,
        }),
        {
          cacheKeyWillBeUsed: async ({ request }) => imageCacheKey(request.url),
          handlerDidError: async () => placeholder(),
        },
      ],
    });
    strategies.set(userId, strategy);
  }
  return strategy;
}

export function registerImageCache(origin: string): void {
  registerRoute(
    ({ url, request }) => request.method === 'GET' && isCachedImage(url, origin),
    async ({ request, event }) => {
      const auth = await currentAuth();
      if (!auth) return fetch(request).catch(placeholder);
      return strategyFor(auth.userId).handle({ request, event });
    },
  );
}
