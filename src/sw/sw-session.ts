/// <reference lib="webworker" />
// Who is signed in, as far as the service worker knows: the token and user id in the session's
// own IndexedDB (session-db.ts), which pages hand over (AUTH/LOGOUT) and refreshes rotate. Caching decisions follow
// it, and user caches are purged when it ends or changes hands.
import { openSessionDb, type StoredAuth } from '../lib/session-db.ts';
import { deleteUserCaches } from './delete-user-caches.ts';
import { bearerToken } from './user-caches.ts';

/**
 * Tokens this worker has seen for the signed-in user. A refresh rotates the token while requests
 * made with the previous one may still be on their way; those are the same user's, and must be
 * cached as such, or the first list after a page load would sometimes not be kept offline.
 */
const recentTokens = new Map<string, string>();
const RECENT_TOKENS_MAX = 8;

export async function currentAuth(): Promise<StoredAuth | undefined> {
  const auth = await (await openSessionDb()).getAuth();
  if (auth) {
    for (const token of auth.previousTokens ?? []) rememberToken(token, auth.userId);
    rememberToken(auth.token, auth.userId);
  }
  return auth;
}

/** Called for every token a page hands over (AUTH) and every one read back. */
export function rememberToken(token: string, userId: string): void {
  recentTokens.delete(token);
  recentTokens.set(token, userId);
  while (recentTokens.size > RECENT_TOKENS_MAX) {
    recentTokens.delete(recentTokens.keys().next().value as string);
  }
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
  if (!auth) return undefined;
  return auth.token === token || recentTokens.get(token) === auth.userId ? auth.userId : undefined;
}

/** Deletes every user cache (logout) or every one not of `keepUserId` (someone signed in). */
export async function purgeUserCaches(keepUserId?: string): Promise<void> {
  for (const [token, userId] of recentTokens) {
    if (userId !== keepUserId) recentTokens.delete(token);
  }
  await deleteUserCaches(keepUserId);
}
