/// <reference lib="webworker" />
// Who is signed in, as far as the service worker knows: the token and user id pages hand to the
// upload queue (AUTH/LOGOUT messages, stored in the queue's IndexedDB). Caching decisions follow
// it, and user caches are purged when it ends or changes hands.
import { CacheExpiration } from 'workbox-expiration';
import { openJobStore, type JobStore, type StoredAuth } from '../upload-queue/job-store.ts';
import { bearerToken, userCachesToDelete } from './user-caches.ts';

let store: Promise<JobStore> | undefined;

export async function currentAuth(): Promise<StoredAuth | undefined> {
  store ??= openJobStore();
  return (await store).getAuth();
}

/**
 * The user a request's answer may be cached for: only when it carries the token of the signed-in
 * user. A request with another token (a user signing in before the worker heard of it) or none is
 * neither stored nor answered from a cache.
 */
export async function ownerOfRequest(request: Request): Promise<string | undefined> {
  const token = bearerToken(request.headers);
  if (!token) return undefined;
  const auth = await currentAuth();
  return auth && auth.token === token ? auth.userId : undefined;
}

/** Deletes every user cache (logout) or every one not of `keepUserId` (someone signed in). */
export async function purgeUserCaches(keepUserId?: string): Promise<void> {
  const doomed = userCachesToDelete(await caches.keys(), keepUserId);
  await Promise.all(
    doomed.map(async (name) => {
      // The expiration plugin's timestamps name the cached URLs: they go too.
      await new CacheExpiration(name, { maxEntries: 1 }).delete().catch(() => undefined);
      await caches.delete(name);
    }),
  );
}
