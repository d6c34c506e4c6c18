// Which caches belong to which user. Cached answers and images are one user's data: each lives in
// a cache named `<base>@<userId>`, is read only for that user, and is deleted on logout, account
// deletion, and when another user signs in on the device. The rules are pure for unit tests.
import { USER_CACHE_PREFIXES } from '../config/offline.ts';

export function userCacheName(base: string, userId: string): string {
  return `${base}@${userId}`;
}

export function isUserCache(name: string): boolean {
  return USER_CACHE_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The owner named in a user cache's name; undefined for a cache without one. */
export function cacheOwner(name: string): string | undefined {
  const at = name.lastIndexOf('@');
  return at > 0 ? name.slice(at + 1) : undefined;
}

/**
 * The user caches to delete: all of them on logout (no `keepUserId`), or every one that is not
 * the signed-in user's when someone signs in. Precache and other caches are never touched.
 */
export function userCachesToDelete(names: readonly string[], keepUserId?: string): string[] {
  return names.filter(
    (name) => isUserCache(name) && (keepUserId === undefined || cacheOwner(name) !== keepUserId),
  );
}

/** The bearer token a request carries, if any. */
export function bearerToken(headers: Headers): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(headers.get('Authorization') ?? '');
  return match?.[1];
}
