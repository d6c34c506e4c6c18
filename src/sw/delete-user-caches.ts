// Deletes user caches with their expiration metadata. Shared by the service worker (logout and
// sign-in messages) and pages: a page the worker does not control (after a hard reload) cannot
// reach it by message, so logout deletes the caches from the page as well.
import { CacheExpiration } from 'workbox-expiration';
import { userCachesToDelete } from './user-caches.ts';

/**
 * Deletes every user cache (logout, account deletion) or every one not of `keepUserId` (someone
 * signed in), and answers the names deleted. Precache and other caches are never touched.
 */
export async function deleteUserCaches(keepUserId?: string): Promise<string[]> {
  const doomed = userCachesToDelete(await caches.keys(), keepUserId);
  await Promise.all(
    doomed.map(async (name) => {
      // The expiration plugin's timestamps (IndexedDB) name the cached URLs: they go too.
      await new CacheExpiration(name, { maxEntries: 1 }).delete().catch(() => undefined);
      await caches.delete(name);
    }),
  );
  return doomed;
}
