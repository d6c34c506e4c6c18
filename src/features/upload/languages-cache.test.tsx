import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../../app/store';
import { initialSessionState } from '../../lib/session-slice';
import { FakeCacheStorage } from '../../testing/fake-cache-storage';
import { SESSION_USER, stubFetch } from '../../testing/fetch-stub';
import { useSupportedLanguagesQuery } from './api';

// The output languages are fetched with the user's token: the copy kept for the upload dialog
// offline follows the per-user cache rule (issue 8), so logout deletes it.
const LANGUAGES = [{ code: 'en', name: 'English' }];
let storage: FakeCacheStorage;

function languagesFor(userId: number) {
  const currentUser = { ...SESSION_USER, user: { ...SESSION_USER.user, id: userId } };
  const store = createStore({
    session: { ...initialSessionState, currentUser, status: 'signedIn' },
  });
  // The store alone: SessionKeeper would restore (and verify) the stored session meanwhile.
  const wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>{children}</Provider>
  );
  return renderHook(() => useSupportedLanguagesQuery(), { wrapper }).result;
}

beforeEach(() => {
  storage = new FakeCacheStorage();
  vi.stubGlobal('caches', storage);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the upload dialog’s languages offline', { timeout: 30_000 }, () => {
  it('are kept in a cache of the signed-in user, and only read back for that user', async () => {
    stubFetch({ 'GET /api/supported-videos-languages': () => ({ status: 200, body: LANGUAGES }) });
    const online = languagesFor(7);
    await waitFor(() => expect(online.current.data).toEqual(LANGUAGES));
    await waitFor(() => expect(storage.names()).toEqual(['upload-languages-v2@7']));

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const offline = languagesFor(7);
    await waitFor(() => expect(offline.current.data).toEqual(LANGUAGES));
    const someoneElse = languagesFor(8);
    await waitFor(() => expect(someoneElse.current.isError).toBe(true));
    expect(someoneElse.current.data).toBeUndefined();
  });
});
