/// <reference lib="webworker" />
// Thumbnails, frames and captions tracks: cache-first, bounded by count and age, keyed without the
// signature, in a cache of the signed-in user. Without a signed-in user they pass through uncached.
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import {
  IMAGE_CACHE,
  PLACEHOLDER_SVG,
  imageCacheKey,
  isCachedCaptions,
  isCachedImage,
} from './image-cache-rules.ts';
import { currentAuth } from './sw-session.ts';
import { userCacheName } from './user-caches.ts';

const placeholder = (): Response =>
  new Response(PLACEHOLDER_SVG, { headers: { 'Content-Type': 'image/svg+xml' } });

const strategies = new Map<string, CacheFirst>();

function strategyFor(userId: string, origin: string): CacheFirst {
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
          // A missing captions track is an error, not a grey picture.
          handlerDidError: async ({ request }) =>
            isCachedImage(new URL(request.url), origin) ? placeholder() : undefined,
        },
      ],
    });
    strategies.set(userId, strategy);
  }
  return strategy;
}

export function registerImageCache(origin: string): void {
  registerRoute(
    ({ url, request }) =>
      request.method === 'GET' && (isCachedImage(url, origin) || isCachedCaptions(url, origin)),
    async ({ request, event }) => {
      const auth = await currentAuth();
      if (!auth) {
        const image = isCachedImage(new URL(request.url), origin);
        return image ? fetch(request).catch(placeholder) : fetch(request);
      }
      return strategyFor(auth.userId, origin).handle({ request, event });
    },
  );
}
