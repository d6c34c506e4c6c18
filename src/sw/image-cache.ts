/// <reference lib="webworker" />
// Thumbnails and frames: cache-first, bounded by count and age, keyed without the signature.
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { IMAGE_CACHE, PLACEHOLDER_SVG, imageCacheKey, isCachedImage } from './image-cache-rules.ts';

export function registerImageCache(origin: string): void {
  registerRoute(
    ({ url, request }) => request.method === 'GET' && isCachedImage(url, origin),
    new CacheFirst({
      cacheName: IMAGE_CACHE.cacheName,
      matchOptions: { ignoreSearch: true },
      plugins: [
        new ExpirationPlugin({
          maxEntries: IMAGE_CACHE.maxEntries,
          maxAgeSeconds: IMAGE_CACHE.maxAgeSeconds,
          purgeOnQuotaError: IMAGE_CACHE.purgeOnQuotaError,
        }),
        {
          cacheKeyWillBeUsed: async ({ request }) => imageCacheKey(request.url),
          handlerDidError: async () =>
            new Response(PLACEHOLDER_SVG, { headers: { 'Content-Type': 'image/svg+xml' } }),
        },
      ],
    }),
  );
}

/** Logout and account deletion: nothing of this user's images may stay on the device. */
export async function purgeImageCache(): Promise<void> {
  await caches.delete(IMAGE_CACHE.cacheName);
}
