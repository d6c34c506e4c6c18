/// <reference lib="webworker" />
// The one service worker, in a few steps: precache the shell, clean outdated caches, answer every
// client route with the shell, cache images and recent API answers per user, accept SKIP_WAITING
// from the update prompt once no upload is moving, and run the upload queue.
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { openJobStore } from '../upload-queue/job-store.ts';
import { registerApiCache } from './api-cache.ts';
import { registerImageCache } from './image-cache.ts';
import { purgeUserCaches, rememberToken } from './sw-session.ts';
import { whenUploadsIdle } from '../upload-queue/upload-activity.ts';
import { installUploadQueue } from './upload-queue-sw.ts';

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/assets\/data\//],
  }),
);
registerApiCache(self.location.origin);
registerImageCache(self.location.origin);

type SessionMessage =
  { type: 'AUTH'; userId: string; token: string } | { type: 'LOGOUT' } | { type: 'SKIP_WAITING' };

self.addEventListener('message', (event) => {
  const message = event.data as SessionMessage | null;
  switch (message?.type) {
    case 'AUTH': // someone signed in (or renewed): nobody else's data stays
      rememberToken(message.token, message.userId);
      event.waitUntil(purgeUserCaches(message.userId));
      break;
    case 'LOGOUT': // logout, expiry, account deletion
      event.waitUntil(purgeUserCaches());
      break;
    case 'SKIP_WAITING': {
      // The page already waits for idle uploads; this covers a page that did not (or another tab).
      const store = openJobStore();
      const jobs = async () => (await store).list();
      event.waitUntil(whenUploadsIdle(jobs).then(() => self.skipWaiting()));
      break;
    }
    default:
      break;
  }
});

installUploadQueue();
