import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../app/store';
import { LOGIN_ANSWER, SESSION_USER, stubFetch } from '../testing/fetch-stub';
import { api } from './api';
import { INITIAL_PASSWORD_DETAIL } from './base-query';
import { openSessionDb } from './session-db';
import { startSession } from './session';
import { loadStoredUser } from './session-storage';
import { USER_STORAGE_KEY } from '../config/storage-keys';
import type * as Limits from '../config/limits';

// The product asks a refresh without an answer again after 1, 3 and 6 s: the same tries, at once.
vi.mock('../config/limits', async (importOriginal) => ({
  ...(await importOriginal<typeof Limits>()),
  REFRESH_RETRY_DELAYS_MS: [1, 1, 1],
}));

const testApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, { path: string; params?: Record<string, unknown>; auth?: boolean }>(
      {
        query: ({ path, params, auth }) => ({ url: path, body: params, auth }),
      },
    ),
    send: build.mutation<unknown, { path: string; body: unknown }>({
      query: ({ path, body }) => ({ url: path, method: 'POST', body }),
    }),
  }),
});

async function signedInStore() {
  const store = createStore();
  await store.dispatch(startSession(SESSION_USER));
  return store;
}

beforeEach(async () => {
  localStorage.clear();
  await (await openSessionDb()).setAuth(undefined);
  window.history.replaceState(null, '', '/video');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('base query (section 7)', () => {
  it('sends GET payloads as a bracket query with JSON headers and the bearer token', async () => {
    const { sent } = stubFetch({ 'GET /api/videos': () => ({ status: 200, body: { items: [] } }) });
    const store = await signedInStore();
    await store.dispatch(
      testApi.endpoints.probe.initiate({
        path: '/api/videos',
        params: { size: 50, filter: { tags: ['a', 'b'] } },
      }),
    );
    const [request] = sent;
    expect(request?.url.origin).toBe(window.location.origin);
    expect(request?.url.search).toBe('?size=50&filter[tags][]=a&filter[tags][]=b');
    expect(request?.headers).toMatchObject({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      Authorization: 'Bearer token-1',
    });
  });

  it('marks a refetch of an answer already on screen, never a first load or a mutation', async () => {
    const { sent } = stubFetch({
      'GET /api/videos': () => ({ status: 200, body: { items: [] } }),
      'POST /api/videos': () => ({ status: 200, body: {} }),
    });
    const store = await signedInStore();
    const args = { path: '/api/videos' };
    await store.dispatch(testApi.endpoints.probe.initiate(args));
    await store.dispatch(testApi.endpoints.probe.initiate(args, { forceRefetch: true }));
    await store.dispatch(testApi.endpoints.send.initiate({ path: '/api/videos', body: {} }));
    expect(sent.map((r) => r.headers['X-Refresh'])).toEqual([undefined, '1', undefined]);
  });

  it('names the interface language in Accept-Language (the server writes mails in it)', async () => {
    const { sent } = stubFetch({ 'GET /api/open': () => ({ status: 200, body: {} }) });
    const store = createStore();
    try {
      document.documentElement.lang = 'ja';
      await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/open' }));
      document.documentElement.lang = 'en';
      await store.dispatch(
        testApi.endpoints.probe.initiate({ path: '/api/open', params: { again: 1 } }),
      );
    } finally {
      document.documentElement.lang = '';
    }
    expect(sent.map((r) => r.headers['Accept-Language'])).toEqual(['ja', 'en']);
  });

  it('leaves the token off when the endpoint says so or when nobody is signed in', async () => {
    const { sent } = stubFetch({ 'GET /api/open': () => ({ status: 200, body: {} }) });
    const store = await signedInStore();
    await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/open', auth: false }));
    const anonymous = createStore();
    await anonymous.dispatch(testApi.endpoints.probe.initiate({ path: '/api/open' }));
    expect(sent.map((r) => r.headers.Authorization)).toEqual([undefined, undefined]);
  });

  it('sends other payloads as a JSON body and passes FormData through', async () => {
    const { sent } = stubFetch({
      'POST /api/things': () => ({ status: 201, body: { created_id: 3 } }),
    });
    const store = await signedInStore();
    const result = await store.dispatch(
      testApi.endpoints.send.initiate({ path: '/api/things', body: { full_name: 'A' } }),
    );
    expect(result.data).toEqual({ createdId: 3 });
    expect(sent[0]?.body).toEqual({ full_name: 'A' });
    const form = new FormData();
    form.append('names', 'Ann');
    await store.dispatch(testApi.endpoints.send.initiate({ path: '/api/things', body: form }));
    expect(sent[1]?.body).toBe(form);
    expect(sent[1]?.headers['Content-Type']).toBeUndefined();
  });

  it('camelCases answers recursively', async () => {
    stubFetch({
      'GET /api/profile': () => ({
        status: 200,
        body: { full_name: 'A', team: { team_name: 'T' }, items: [{ video_path: 'p' }] },
      }),
    });
    const store = await signedInStore();
    const result = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/profile' }));
    expect(result.data).toEqual({
      fullName: 'A',
      team: { teamName: 'T' },
      items: [{ videoPath: 'p' }],
    });
  });

  it('counts only 200 and 201 as success; rejections carry the body fields and the status', async () => {
    stubFetch({
      'GET /api/accepted': () => ({ status: 202, body: { job_id: 1 } }),
      'GET /api/bad': () => ({
        status: 422,
        body: { detail: [{ loc: ['body', 'x'], msg: 'bad' }], extra: 1 },
      }),
      'GET /api/empty': () => ({ status: 204 }),
    });
    const store = await signedInStore();
    const accepted = await store.dispatch(
      testApi.endpoints.probe.initiate({ path: '/api/accepted' }),
    );
    expect(accepted.error).toEqual({ job_id: 1, status: 202 });
    const bad = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/bad' }));
    expect(bad.error).toEqual({
      detail: [{ loc: ['body', 'x'], msg: 'bad' }],
      extra: 1,
      status: 422,
    });
    const empty = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/empty' }));
    expect(empty.error).toEqual({ status: 204 });
  });

  it.each([401, 403])('logs out and goes to Login on %i, rejecting with {}', async (status) => {
    const { sent } = stubFetch({
      'POST /api/videos': () => ({ status, body: { detail: 'no' } }),
      // After a 401 the token is renewed first: the server refuses, the session is over.
      'GET /api/refresh': () => ({ status: 401, body: { detail: 'Session expired' } }),
    });
    window.history.replaceState(null, '', '/video?tsiletihw=k');
    const store = await signedInStore();
    expect(localStorage.getItem(USER_STORAGE_KEY)).not.toBeNull();
    // The logout resets the cache, so the rejection is read from the call itself.
    await expect(
      store.dispatch(testApi.endpoints.send.initiate({ path: '/api/videos', body: {} })).unwrap(),
    ).rejects.toEqual({});
    await vi.waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(window.location.search).toBe('?tsiletihw=k');
    expect(store.getState().session.currentUser).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(store.getState().api?.queries).toEqual({}); // cache reset
    // No logout call to the server; after a 401 one refresh was tried.
    expect(sent.map((r) => r.url.pathname)).toEqual(
      status === 401 ? ['/api/videos', '/api/refresh'] : ['/api/videos'],
    );
  });

  it('after a 401, retries once with the token another tab or the worker renewed, without asking the server', async () => {
    const { sent } = stubFetch({
      'GET /api/videos': (req) =>
        req.headers.Authorization === 'Bearer token-2'
          ? { status: 200, body: { total: 0 } }
          : { status: 401, body: { detail: 'Session expired' } },
    });
    const store = await signedInStore();
    // The other context refreshed: the session's store holds the rotated token.
    const session = await openSessionDb();
    await session.handOverAuth('token-1', '7');
    await session.handOverAuth('token-2', '7');
    const result = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/videos' }));
    expect(result.data).toEqual({ total: 0 });
    expect(sent.map((r) => r.headers.Authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(store.getState().session.currentUser?.accessToken).toBe('token-2');
    expect((await loadStoredUser())?.accessToken).toBe('token-2');
    expect(window.location.pathname).toBe('/video');
  });

  it("after a 401 that passed the token's hour, renews it and retries", async () => {
    const { sent } = stubFetch({
      'GET /api/videos': (req) =>
        req.headers.Authorization === 'Bearer token-2'
          ? { status: 200, body: { total: 0 } }
          : { status: 401, body: { detail: 'Session expired' } },
      'GET /api/refresh': () => ({
        status: 200,
        body: { ...LOGIN_ANSWER, access_token: 'token-2' },
      }),
    });
    const store = await signedInStore();
    const result = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/videos' }));
    expect(result.data).toEqual({ total: 0 });
    expect(sent.map((r) => `${r.url.pathname} ${r.headers.Authorization}`)).toEqual([
      '/api/videos Bearer token-1',
      '/api/refresh Bearer token-1',
      '/api/videos Bearer token-2',
    ]);
    expect(store.getState().session.currentUser?.accessToken).toBe('token-2');
  });

  it.each([
    ['cannot be reached', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['answers 503', () => ({ status: 503, body: { detail: 'Service Unavailable' } })],
  ])('after a 401, keeps the user signed in when the refresh %s', async (_name, refresh) => {
    const videos = { status: 401, body: { detail: 'Session expired' } };
    stubFetch({ 'GET /api/videos': () => videos });
    const stubbed = vi.mocked(fetch);
    const answer = stubbed.getMockImplementation()!;
    stubbed.mockImplementation(async (input, init) => {
      if (!String(input).endsWith('/api/refresh')) return answer(input, init);
      const fake = await refresh();
      return new Response(JSON.stringify(fake.body), { status: fake.status });
    });
    const store = await signedInStore();
    const result = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/videos' }));
    expect(result.error).toMatchObject({ status: 401 });
    expect(store.getState().session.currentUser?.accessToken).toBe('token-1');
    expect(localStorage.getItem(USER_STORAGE_KEY)).not.toBeNull();
    expect(window.location.pathname).toBe('/video');
  });

  it('on the sign-in pages a 401 neither logs out nor redirects and keeps its status', async () => {
    stubFetch({ 'GET /api/thing': () => ({ status: 401, body: { detail: 'Invalid link' } }) });
    window.history.replaceState(null, '', '/reset-password?resetToken=abc');
    const store = await signedInStore();
    const result = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/thing' }));
    expect(result.error).toEqual({ detail: 'Invalid link', status: 401 });
    expect(window.location.pathname).toBe('/reset-password');
    expect(store.getState().session.currentUser).not.toBeNull();
  });

  it('the initial-password 403 leads to Change password instead of logging out', async () => {
    stubFetch({
      'GET /api/videos': () => ({ status: 403, body: { detail: INITIAL_PASSWORD_DETAIL } }),
    });
    const store = await signedInStore();
    const result = await store.dispatch(testApi.endpoints.probe.initiate({ path: '/api/videos' }));
    expect(result.error).toEqual({ detail: INITIAL_PASSWORD_DETAIL, status: 403 });
    await vi.waitFor(() => expect(window.location.pathname).toBe('/profile'));
    expect(window.location.search).toBe('?type=change_password');
    expect(store.getState().session.currentUser?.user.mustChangePassword).toBe(true);
  });
});
