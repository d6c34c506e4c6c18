import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
import { decryptText, encryptText, loadStoredUser, saveStoredUser } from './session-storage';

beforeEach(() => {
  localStorage.clear();
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

  it('signs out when refresh is refused or carries no token', async () => {
    for (const answer of [
      { status: 401, body: { detail: 'x' } },
      { status: 200, body: { user: {} } },
    ]) {
      stubFetch({ 'GET /api/refresh': () => answer });
      const store = createStore();
      await store.dispatch(startSession(SESSION_USER));
      expect(await store.dispatch(verifySession())).toBe(false);
      expect(store.getState().session.currentUser).toBeNull();
      expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    }
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
