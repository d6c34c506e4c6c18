/// <reference lib="webworker" />
// Recent results readable offline: the API GETs behind browsing are answered network-first with a
// short timeout and kept per user (see docs/decisions/offline-results-cache.md). An answer is kept
// when the API says it was made for the signed-in user (a request sent with a token the worker has
// not heard of yet, right after a refresh, is still kept); a cached answer is given only to a
// request carrying that user's token.
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import {
  API_CACHE_MAX_AGE_SECONDS,
  API_CACHE_MAX_ENTRIES,
  API_CACHE_NAME,
  API_NETWORK_TIMEOUT_SECONDS,
  REFRESH_HEADER,
} from '../config/offline.ts';
import { isAnswerFor, isCachedApiGet } from './api-cache-rules.ts';
import { currentAuth, ownerOfRequest } from './sw-session.ts';
import { bearerToken, userCacheName } from './user-caches.ts';

const strategies = new Map<string, NetworkFirst>();

/**
 * A first load gets the cached copy after a short wait for the network; a refresh of an answer
 * on screen (REFRESH_HEADER) waits for the network and gets the copy only when the network fails.
 */
function strategyFor(userId: string, refresh: boolean): NetworkFirst {
  const key = `${userId}${refresh ? ':refresh' : ''}`;
  let strategy = strategies.get(key);
  if (!strategy) {
    strategy = new NetworkFirst({
      cacheName: userCacheName(API_CACHE_NAME, userId),
      ...(refresh ? {} : { networkTimeoutSeconds: API_NETWORK_TIMEOUT_SECONDS }),
      // The token changes every refresh; the user is already fixed by the cache name.
      matchOptions: { ignoreVary: true },
      plugins: [
        {
          cacheWillUpdate: async ({ response }) =>
            isAnswerFor(response, userId) ? response : null,
          cachedResponseWillBeUsed: async ({ request, cachedResponse }) =>
            (await ownerOfRequest(request)) === userId ? cachedResponse : undefined,
        },
        new ExpirationPlugin({
          maxEntries: API_CACHE_MAX_ENTRIES,
          maxAgeSeconds: API_CACHE_MAX_AGE_SECONDS,
          purgeOnQuotaError: true,
        }),
      ],
    });
    strategies.set(key, strategy);
  }
  return strategy;
}

export function registerApiCache(origin: string): void {
  registerRoute(
    ({ url, request }) => isCachedApiGet(url, request.method, origin),
    async ({ request, event }) => {
      const auth = await currentAuth();
      if (!auth || !bearerToken(request.headers)) return fetch(request);
      const refresh = request.headers.has(REFRESH_HEADER);
      return strategyFor(auth.userId, refresh).handle({ request, event });
    },
  );
}
