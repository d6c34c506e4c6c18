// Who is signed in, for every context of the origin: pages, the service worker and the upload
// queue read the current token from this small IndexedDB of its own (the upload queue's database
// holds uploads and nothing else). The token here is the one that counts: a sign-in writes it here
// first, a refresh here only (token-refresh.ts), and a restore takes it from here. The page's
// encrypted copy of the user in localStorage (session-storage.ts) is derived from it, for the
// first render and for other tabs.
import type { DBSchema, IDBPDatabase } from 'idb';

export interface StoredAuth {
  token: string;
  userId: string;
  /** The same user's tokens before the last refreshes: requests made with them may still run. */
  previousTokens?: string[];
}

/**
 * The auth record after `token` is handed over: a refresh of the same user keeps the last few
 * tokens, so requests still on their way with them are known as this user's. A token already
 * replaced (a page handing over the one it restored, after another context refreshed it) is
 * ignored: going back to it would hand every context a revoked token.
 */
export function rotatedAuth(
  before: StoredAuth | undefined,
  token: string,
  userId: string,
): StoredAuth {
  const sameUser = before?.userId === userId;
  if (sameUser && before.previousTokens?.includes(token)) return before;
  const kept = sameUser ? (before.previousTokens ?? []) : [];
  const previousTokens =
    sameUser && before.token !== token ? [before.token, ...kept].slice(0, 4) : kept;
  return { token, userId, previousTokens };
}

/** The token that replaced `token`, when a refresh elsewhere rotated it. */
export function successorOf(auth: StoredAuth | undefined, token: string): string | undefined {
  return auth && auth.token !== token && auth.previousTokens?.includes(token)
    ? auth.token
    : undefined;
}

interface SessionSchema extends DBSchema {
  auth: { key: 'current'; value: StoredAuth };
}

export const SESSION_DB_NAME = 'session';

export interface SessionDb {
  getAuth(): Promise<StoredAuth | undefined>;
  setAuth(auth: StoredAuth | undefined): Promise<void>;
  /** Sign-in: rotatedAuth in one transaction. */
  handOverAuth(token: string, userId: string): Promise<void>;
  /**
   * A refresh's answer: `next` replaces `previous` in one transaction, only while the session it
   * renews is still the stored one. Answers false, writing nothing, when it is not (a logout or
   * another sign-in came first): a late answer must not sign a signed-out browser back in.
   */
  handOverRefresh(previous: string, next: string, userId: string): Promise<boolean>;
  /**
   * Forgets the token if it is still `token` (refused by the server), in one transaction: a
   * newer token handed over meanwhile is never lost. Answers whether it was forgotten.
   */
  forgetAuthIf(token: string): Promise<boolean>;
  close(): void;
}

const opened = new Map<string, Promise<SessionDb>>();

/** One connection per database name and context. */
export function openSessionDb(name = SESSION_DB_NAME): Promise<SessionDb> {
  let db = opened.get(name);
  if (!db) {
    db = connect(name);
    opened.set(name, db);
  }
  return db;
}

async function connect(name: string): Promise<SessionDb> {
  // Loaded when first used: the signed-out first screens need no database (issue 29, 100 KB).
  const { openDB } = await import('idb');
  const db: IDBPDatabase<SessionSchema> = await openDB<SessionSchema>(name, 1, {
    upgrade(database) {
      database.createObjectStore('auth');
    },
  });
  return {
    getAuth: () => db.get('auth', 'current'),
    async setAuth(auth) {
      if (auth) await db.put('auth', auth, 'current');
      else await db.delete('auth', 'current');
    },
    async handOverAuth(token, userId) {
      const tx = db.transaction('auth', 'readwrite');
      const before = await tx.store.get('current');
      await tx.store.put(rotatedAuth(before, token, userId), 'current');
      await tx.done;
    },
    async handOverRefresh(previous, next, userId) {
      const tx = db.transaction('auth', 'readwrite');
      const before = await tx.store.get('current');
      const current =
        before?.userId === userId &&
        (before.token === previous ||
          before.token === next ||
          (before.previousTokens?.includes(previous) ?? false));
      if (current) await tx.store.put(rotatedAuth(before, next, userId), 'current');
      await tx.done;
      return current;
    },
    async forgetAuthIf(token) {
      const tx = db.transaction('auth', 'readwrite');
      const current = await tx.store.get('current');
      const same = current?.token === token;
      if (same) await tx.store.delete('current');
      await tx.done;
      return same;
    },
    close: () => {
      opened.delete(name);
      db.close();
    },
  };
}
