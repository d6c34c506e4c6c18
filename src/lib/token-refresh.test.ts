// One refresh across contexts (issue 14): callers in one context share a refresh, a context that
// takes the lock after another refreshed uses the newer token without asking the server, and only
// a refusal of the newest token means "signed out".
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Limits from '../config/limits';
import { openSessionDb } from './session-db';
import type * as TokenRefresh from './token-refresh';
import type { RefreshDeps, RefreshOutcome } from './token-refresh';

// The product asks a refresh without an answer again after 1, 3 and 6 s: the same tries, at once.
vi.mock('../config/limits', async (importOriginal) => ({
  ...(await importOriginal<typeof Limits>()),
  REFRESH_RETRY_DELAYS_MS: [1, 1, 1],
}));

type Answer = { status: number; body: unknown } | 'network';

/** A server that rotates like the real one without its grace window: the old token stops. */
function rotatingServer(answers: Answer[] = []) {
  let valid = 'token-1';
  let generation = 1;
  const calls: string[] = [];
  const callRefresh = vi.fn(async (token: string) => {
    calls.push(token);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const scripted = answers.shift();
    if (scripted === 'network') throw new TypeError('Failed to fetch');
    if (scripted) return scripted;
    if (token !== valid) {
      // A refusal answers after the winner's answer has been stored, as over a real network.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { status: 401, body: { detail: 'Session expired' } };
    }
    generation += 1;
    valid = `token-${generation}`;
    return { status: 200, body: { access_token: valid, token_type: 'bearer' } };
  });
  return { callRefresh, calls };
}

/** Web Locks as the browser grants them: one holder at a time, in request order. */
function fakeLocks(): LockManager {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request: ((_name: string, callback: (lock: Lock | null) => Promise<unknown>) => {
      const run = tail.then(() => callback({ name: _name, mode: 'exclusive' } as Lock));
      tail = run.catch(() => undefined);
      return run;
    }) as LockManager['request'],
    query: () => Promise.resolve({ held: [], pending: [] }),
  };
}

/** A separate context (tab or service worker): its own module instance, so its own single-flight. */
async function context(): Promise<typeof TokenRefresh> {
  vi.resetModules();
  return import('./token-refresh');
}

beforeEach(async () => {
  await (await openSessionDb()).setAuth({ token: 'token-1', userId: '7' });
});

function depsOf(
  server: Pick<ReturnType<typeof rotatingServer>, 'callRefresh'>,
  locks?: LockManager,
): RefreshDeps {
  return { session: () => openSessionDb(), callRefresh: server.callRefresh, locks };
}

const tokenOf = (outcome: RefreshOutcome) =>
  outcome.kind === 'renewed' ? outcome.token : outcome.kind;

/** A refresh call whose answer (a new token) waits until `answered()` lets it go. */
function heldRefresh() {
  let release!: () => void;
  const callRefresh = vi.fn(async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return { status: 200, body: { access_token: 'token-2', token_type: 'bearer' } };
  });
  return { callRefresh, answered: () => release() };
}

describe('refreshToken', () => {
  it('sends one refresh for every caller in a context, and all get its token', async () => {
    const server = rotatingServer();
    const { refreshToken } = await context();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => refreshToken('token-1', '7', depsOf(server))),
    );
    expect(server.calls).toEqual(['token-1']);
    expect(outcomes.map(tokenOf)).toEqual(outcomes.map(() => 'token-2'));
    expect((await (await openSessionDb()).getAuth())?.token).toBe('token-2');
  });

  it('across tabs and the worker, the lock holder refreshes and the others take its token', async () => {
    const server = rotatingServer();
    const locks = fakeLocks();
    const contexts = [await context(), await context(), await context()];
    const outcomes = await Promise.all(
      contexts.map((c) => c.refreshToken('token-1', '7', depsOf(server, locks))),
    );
    expect(server.calls).toEqual(['token-1']);
    expect(outcomes.map(tokenOf)).toEqual(['token-2', 'token-2', 'token-2']);
  });

  it('without Web Locks, a refusal that raced a refresh elsewhere is no sign-out', async () => {
    const server = rotatingServer();
    const [a, b] = [await context(), await context()];
    const outcomes = await Promise.all([
      a.refreshToken('token-1', '7', depsOf(server)),
      b.refreshToken('token-1', '7', depsOf(server)),
    ]);
    expect(server.calls).toEqual(['token-1', 'token-1']);
    expect(outcomes.map(tokenOf)).toEqual(['token-2', 'token-2']);
  });

  it.each([
    ['a network error', 'network' as const],
    ['a 503', { status: 503, body: { detail: 'Service Unavailable' } }],
    ['a 500', { status: 500, body: 'Internal Server Error' }],
    ['a 429', { status: 429, body: { detail: 'Too many requests' } }],
  ])('keeps the session on %s', async (_name, answer) => {
    // Every try of this refresh (the first and its three retries) meets the failure.
    const server = rotatingServer([answer, answer, answer, answer]);
    const { refreshToken } = await context();
    expect(await refreshToken('token-1', '7', depsOf(server))).toEqual({ kind: 'unavailable' });
    expect(server.calls).toHaveLength(4);
    expect((await (await openSessionDb()).getAuth())?.token).toBe('token-1');
    // The next attempt works with the same token.
    expect(tokenOf(await refreshToken('token-1', '7', depsOf(server)))).toBe('token-2');
  });

  it('asks again at once when the answer of a rotation was lost, and gets the successor', async () => {
    // The real server: the token rotates, and the old one buys the same successor only for a
    // short grace window; after it the old token is taken for stolen and the session ends.
    const calls: string[] = [];
    const callRefresh = vi.fn(async (token: string) => {
      calls.push(token);
      if (calls.length === 1) throw new TypeError('Failed to fetch'); // rotated, answer lost
      if (token === 'token-1')
        // within the window
        return { status: 200, body: { access_token: 'token-2', token_type: 'bearer' } };
      return { status: 401, body: { detail: 'Session expired' } };
    });
    const { refreshToken } = await context();
    const outcome = await refreshToken('token-1', '7', depsOf({ callRefresh }));
    expect(tokenOf(outcome)).toBe('token-2');
    expect(calls).toEqual(['token-1', 'token-1']);
    expect((await (await openSessionDb()).getAuth())?.token).toBe('token-2');
  });

  it('signs out only when the server refuses the newest token', async () => {
    const server = rotatingServer([{ status: 401, body: { detail: 'Session expired' } }]);
    const { refreshToken } = await context();
    expect(await refreshToken('token-1', '7', depsOf(server))).toEqual({ kind: 'signed-out' });
  });

  it('drops an answer that arrives after logout: the browser stays signed out', async () => {
    const { callRefresh, answered } = heldRefresh();
    const { refreshToken } = await context();
    const pending = refreshToken('token-1', '7', depsOf({ callRefresh }));
    await vi.waitFor(() => expect(callRefresh).toHaveBeenCalled());
    // The user logs out while the refresh is on its way.
    await (await openSessionDb()).setAuth(undefined);
    answered();
    expect(await pending).toEqual({ kind: 'signed-out' });
    expect(await (await openSessionDb()).getAuth()).toBeUndefined();
  });

  it('drops an answer that arrives after another user signed in', async () => {
    const { callRefresh, answered } = heldRefresh();
    const { refreshToken } = await context();
    const pending = refreshToken('token-1', '7', depsOf({ callRefresh }));
    await vi.waitFor(() => expect(callRefresh).toHaveBeenCalled());
    await (await openSessionDb()).handOverAuth('other-1', '8');
    answered();
    expect(await pending).toEqual({ kind: 'signed-out' });
    expect(await (await openSessionDb()).getAuth()).toMatchObject({
      token: 'other-1',
      userId: '8',
    });
  });
});

describe('refreshCall', () => {
  it('builds the one refresh request for any transport and reads JSON or text back', async () => {
    const { refreshCall } = await context();
    const sent: { url: string; headers: Record<string, string> }[] = [];
    const transport = (answer: string, status = 200) =>
      vi.fn(async (request: { url: string; headers: Record<string, string> }) => {
        sent.push(request);
        return { status, text: async () => answer };
      });
    const signal = new AbortController().signal;
    const json = refreshCall('https://api.example', transport('{"access_token":"t2"}'), {
      'Accept-Language': 'ja',
    });
    expect(await json('t1', signal)).toEqual({ status: 200, body: { access_token: 't2' } });
    expect(sent[0]).toMatchObject({
      url: 'https://api.example/api/refresh',
      headers: { Accept: 'application/json', Authorization: 'Bearer t1', 'Accept-Language': 'ja' },
    });
    const proxyPage = refreshCall('', transport('<html>Bad gateway</html>', 502));
    expect(await proxyPage('t1', signal)).toEqual({
      status: 502,
      body: '<html>Bad gateway</html>',
    });
    expect(await refreshCall('', transport('', 401))('t1', signal)).toEqual({
      status: 401,
      body: null,
    });
  });
});
