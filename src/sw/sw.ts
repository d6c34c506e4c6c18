/// <reference lib="webworker" />
// The one service worker, in a few steps: precache the shell, clean outdated caches, answer every
// client route with the shell, cache images at runtime, accept SKIP_WAITING from the update prompt,
// and run the upload queue.
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { registerImageCache } from './image-cache.ts';
import { installUploadQueue } from './upload-queue-sw.ts';

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/assets\/data\//],
  }),
);
registerImageCache(self.location.origin);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

installUploadQueue();
