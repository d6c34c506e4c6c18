// The starting points screen tests share: signed out (clean storage), or signed in (a stored
// session before each test, and the network of a signed-in user around the routes a test adds).
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { verificationsSettled } from '../lib/session';
import { saveStoredUser } from '../lib/session-storage';
import { LOGIN_ANSWER, SESSION_USER, stubFetch } from './fetch-stub';

export type Routes = Parameters<typeof stubFetch>[0];

export const EMPTY_LIST = { items: [], total: 0, pages: 0, page: 1, size: 50 };

/** Call at the top of a test file: every test starts signed in, and cleans up after itself. */
export function useStoredSession(): void {
  beforeEach(async () => {
    localStorage.clear();
    await saveStoredUser(SESSION_USER);
  });
  afterEach(async () => {
    cleanup();
    // A renewal the app started may still be writing the stored user: it ends with its test.
    await verificationsSettled();
    vi.unstubAllGlobals();
  });
}

/** Call at the top of a test file: every test starts signed out, and cleans up after itself. */
export function useSignedOut(): void {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/** Answers the session calls of a signed-in user, then `routes`. */
export function stubSignedIn(routes: Routes = {}) {
  return stubFetch({
    'GET /api/refresh': () => ({ status: 200, body: LOGIN_ANSWER }),
    'GET /api/profile': () => ({ status: 200, body: LOGIN_ANSWER.user }),
    ...routes,
  });
}

/** As stubSignedIn, with a team that has no video yet (the list is the first screen). */
export function stubSignedInNoVideos(routes: Routes = {}) {
  return stubSignedIn({ 'GET /api/videos': () => ({ status: 200, body: EMPTY_LIST }), ...routes });
}
