import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Limits from '../config/limits';
import { createStore } from '../app/store';
import { USER_STORAGE_KEY } from '../config/storage-keys';
import { LOGIN_ANSWER, SESSION_USER, stubFetch } from '../testing/fetch-stub';
import { camelizeKeys } from './case-keys';
import {
  logout,
  resetRestoreForTests,
  restoreSession,
  startSession,
  verifySession,
} from './session';
import { openSessionDb } from './session-db';
import { decryptText, encryptText, loadStoredUser, saveStoredUser } from './session-storage';

// The product asks a refresh without an answer again after 1, 3 and 6 s: the same tries, at once.
vi.mock('../config/limits', async (importOriginal) => ({
  ...(await importOriginal<typeof Limits>()),
  REFRESH_RETRY_DELAYS_MS: [1, 1, 1],
}));

beforeEach(async () => {
  localStorage.clear();
  await (await openSessionDb()).setAuth(undefined);
  resetRestoreForTests();
  window.history.replaceState(null, '', '/video');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('stored session (sections 3 and 4)', () => {
  it('is encrypted at rest and reads back', async () => {
    await saveStoredUser(SESSION_USER);
    const stored = localStorage.getItem(USER_STORAGE_KEY) ?? '';
    expect(stored).not.toContain('token-1');
    expect(stored).not.toContain('user@example.com');
    expect(await loadStoredUser()).toEqual(SESSION_USER);
    // A fresh IV each time: the same text never encrypts the same way twice.
    expect(await encryptText('x')).not.toBe(await encryptText('x'));
    expect(await decryptText(await encryptText('héllo'))).toBe('héllo');
  });

  it('treats tampered or token-less storage as no session', async () => {
    localStorage.setItem(USER_STORAGE_KEY, 'bm90IGVuY3J5cHRlZA==');
    expect(await loadStoredUser()).toBeNull();
    localStorage.setItem(USER_STORAGE_KEY, await encryptText(JSON.stringify({ user: {} })));
    expect(await loadStoredUser()).toBeNull();
  });

  it('restores once per page load', async () => {
    await saveStoredUser(SESSION_USER);
    const store = createStore();
    expect(await store.dispatch(restoreSession())).toBe(true);
    expect(store.getState().session).toMatchObject({
      status: 'signedIn',
      currentUser: SESSION_USER,
    });
    localStorage.clear();
    expect(await store.dispatch(restoreSession())).toBe(true); // not read again
  });

  it('a failed restore clears the user and signs out', async () => {
    const store = createStore();
    expect(await store.dispatch(restoreSession())).toBe(false);
    expect(store.getState().session.status).toBe('signedOut');
  });

  it('login answers without an access token are failures', async () => {
    const store = createStore();
    await expect(store.dispatch(startSession({ user: {} }))).rejects.toThrow();
    await store.dispatch(startSession(camelizeKeys(LOGIN_ANSWER)));
    expect(store.getState().session.currentUser?.user.team?.name).toBe('Harbour Films');
  });
});

describe('verifySession', () => {
  it('replaces the user with the refreshed one', async () => {
    const { sent } = stubFetch({
      'GET /api/refresh': () => ({
        status: 200,
        body: { ...LOGIN_ANSWER, access_token: 'token-2' },
      }),
    });
    const store = createStore();
    await store.dispatch(startSession(SESSION_USER));
    expect(await store.dispatch(verifySession())).toBe(true);
    expect(sent[0]?.headers.Authorization).toBe('Bearer token-1');
    expect(store.getState().session.currentUser?.accessToken).toBe('token-2');
    expect((await loadStoredUser())?.accessToken).toBe('token-2');
  });

  it('signs out when the server refuses the token', async () => {
    stubFetch({ 'GET /api/refresh': () => ({ status: 401, body: { detail: 'Session expired' } }) });
    const store = createStore();
    await store.dispatch(startSession(SESSION_USER));
    expect(await store.dispatch(verifySession())).toBe(false);
    expect(store.getState().session.currentUser).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it.each([
    ['a 503', { status: 503, body: { detail: 'Service Unavailable' } }],
    ['a 500', { status: 500, body: 'Internal Server Error' }],
    ['an answer without a token', { status: 200, body: { user: {} } }],
  ])('keeps the session on %s (issue 14)', async (_name, answer) => {
    stubFetch({ 'GET /api/refresh': () => answer });
    const store = createStore();
    await store.dispatch(startSession(SESSION_USER));
    expect(await store.dispatch(verifySession())).toBe(true);
    expect(store.getState().session.currentUser?.accessToken).toBe('token-1');
    expect((await loadStoredUser())?.accessToken).toBe('token-1');
  });

  it('keeps the session when the network is down', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const store = createStore();
    await store.dispatch(startSession(SESSION_USER));
    expect(await store.dispatch(verifySession())).toBe(true);
    expect(store.getState().session.status).toBe('signedIn');
  });

  it('a refusal that raced a refresh in another tab takes its token instead of signing out', async () => {
    const { sent } = stubFetch({
      'GET /api/refresh': () => ({ status: 401, body: { detail: 'Session expired' } }),
    });
    const store = createStore();
    await store.dispatch(startSession(SESSION_USER));
    const session = await openSessionDb();
    await session.handOverAuth('token-1', '7');
    // The other tab's refresh lands while this one's request is on its way.
    vi.mocked(fetch).mockImplementationOnce(async () => {
      await session.handOverAuth('token-2', '7');
      return new Response(JSON.stringify({ detail: 'Session expired' }), { status: 401 });
    });
    expect(await store.dispatch(verifySession())).toBe(true);
    expect(store.getState().session.currentUser?.accessToken).toBe('token-2');
    expect(sent).toHaveLength(0); // the one refresh sent went through the mocked implementation
  });

  it('is rejected up front without a signed-in user', async () => {
    const { sent } = stubFetch({});
    expect(await createStore().dispatch(verifySession())).toBe(false);
    expect(sent).toHaveLength(0);
  });
});

describe('logout', () => {
  it('clears the stored user, tells the server and goes to Login', async () => {
    const { sent } = stubFetch({ 'POST /api/logout': () => ({ status: 200, body: {} }) });
    const store = createStore();
    await store.dispatch(startSession(SESSION_USER));
    await store.dispatch(logout());
    expect(store.getState().session.currentUser).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(window.location.pathname).toBe('/login');
    expect(sent.map((r) => `${r.method} ${r.url.pathname} ${r.headers.Authorization}`)).toEqual([
      'POST /api/logout Bearer token-1',
    ]);
  });
});
