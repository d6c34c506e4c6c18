/// <reference lib="webworker" />
// Recent results readable offline: the API GETs behind browsing are answered network-first with a
// short timeout and kept per user (see docs/decisions.md, "Offline results"). A request whose
// bearer token is not the signed-in user's is passed through and never stored.
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import {
  API_CACHE_MAX_AGE_SECONDS,
  API_CACHE_MAX_ENTRIES,
  API_CACHE_NAME,
  API_NETWORK_TIMEOUT_SECONDS,
} from '../config/offline.ts';
import { isCachedApiGet } from './api-cache-rules.ts';
import { ownerOfRequest } from './sw-session.ts';
import { userCacheName } from './user-caches.ts';

const strategies = new Map<string, NetworkFirst>();

function strategyFor(userId: string): NetworkFirst {
  let strategy = strategies.get(userId);
  if (!strategy) {
    strategy = new NetworkFirst({
      cacheName: userCacheName(API_CACHE_NAME, userId),
      networkTimeoutSeconds: API_NETWORK_TIMEOUT_SECONDS,
      // The token changes every refresh; the user is already fixed by the cache name.
      matchOptions: { ignoreVary: true },
      plugins: [
        new ExpirationPlugin({
          maxEntries: API_CACHE_MAX_ENTRIES,
          maxAgeSeconds: API_CACHE_MAX_AGE_SECONDS,
          purgeOnQuotaError: true,
        }),
      ],
    });
    strategies.set(userId, strategy);
  }
  return strategy;
}

export function registerApiCache(origin: string): void {
  registerRoute(
    ({ url, request }) => isCachedApiGet(url, request.method, origin),
    async ({ request, event }) => {
      const owner = await ownerOfRequest(request);
      if (!owner) return fetch(request);
      return strategyFor(owner).handle({ request, event });
    },
  );
}
