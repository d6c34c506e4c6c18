// Refreshing the session token when pages and the service worker may all try at once (issue 14):
// one refresh in flight per context (the others await it), one at a time across the origin (Web
// Locks), and after the lock the newest token is read again, so a token another context already
// rotated is replaced without asking the server. The server's grace window covers what is left
// (browsers without Web Locks). Only a real refusal signs out: see RefreshOutcome.
import { REFRESH_RETRY_DELAYS_MS, REFRESH_RETRY_WITHIN_MS } from '../config/limits';
import { successorOf, type SessionDb } from './session-db';

export const SESSION_REFRESH_LOCK = 'session-refresh';
/** A refresh that hangs must not hold the lock (and every other context) for ever. */
export const REFRESH_TIMEOUT_MS = 15_000;

export type RefreshOutcome =
  /** `answer` is the server's JSON when this call refreshed; absent when another context had. */
  | { kind: 'renewed'; token: string; answer?: unknown }
  /** The server refused the newest token (revoked or expired session): sign out. */
  | { kind: 'signed-out' }
  /** Network error, timeout, 5xx, 429...: the session stays, try again later. */
  | { kind: 'unavailable' };

export interface RefreshDeps {
  session: () => Promise<SessionDb>;
  /** GET /api/refresh with the token; rejects on a network error. */
  callRefresh(token: string, signal: AbortSignal): Promise<{ status: number; body: unknown }>;
  /** Missing where the browser has no Web Locks. */
  locks?: LockManager | undefined;
}

const inFlight = new Map<string, Promise<RefreshOutcome>>();

/** Renews `token` of `userId`; callers with the same token share one attempt. */
export function refreshToken(
  token: string,
  userId: string,
  deps: RefreshDeps,
): Promise<RefreshOutcome> {
  let pending = inFlight.get(token);
  if (!pending) {
    const attempt = (): Promise<RefreshOutcome> => refreshOnce(token, userId, deps);
    pending = (deps.locks ? deps.locks.request(SESSION_REFRESH_LOCK, attempt) : attempt()).finally(
      () => inFlight.delete(token),
    );
    inFlight.set(token, pending);
  }
  return pending;
}

export function accessTokenOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const token = (body as { access_token?: unknown }).access_token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

async function refreshOnce(
  token: string,
  userId: string,
  deps: RefreshDeps,
): Promise<RefreshOutcome> {
  const session = await deps.session();
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    // Another context (without the lock) may have renewed it meanwhile.
    const rotated = successorOf(await session.getAuth(), token);
    if (rotated) return { kind: 'renewed', token: rotated };
    const outcome = await askServer(token, userId, deps, session);
    if (outcome.kind !== 'unavailable') return outcome;
    const delay = REFRESH_RETRY_DELAYS_MS[attempt];
    if (delay === undefined || Date.now() - started + delay > REFRESH_RETRY_WITHIN_MS)
      return outcome;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

async function askServer(
  token: string,
  userId: string,
  deps: RefreshDeps,
  session: SessionDb,
): Promise<RefreshOutcome> {
  let answer: { status: number; body: unknown };
  try {
    answer = await deps.callRefresh(token, AbortSignal.timeout(REFRESH_TIMEOUT_MS));
  } catch {
    return { kind: 'unavailable' };
  }
  const next = answer.status === 200 ? accessTokenOf(answer.body) : undefined;
  if (next) {
    // An answer that arrives after logout (or after someone else signed in) is dropped.
    if (!(await session.handOverRefresh(token, next, userId))) return { kind: 'signed-out' };
    return { kind: 'renewed', token: next, answer: answer.body };
  }
  if (answer.status !== 401) return { kind: 'unavailable' };
  // Refused: unless a context without the lock renewed it meanwhile, the session is over.
  const renewed = successorOf(await session.getAuth(), token);
  return renewed ? { kind: 'renewed', token: renewed } : { kind: 'signed-out' };
}

/** One GET with headers and an abort signal: fetch, or the upload runner's watched transport. */
export type RefreshTransport = (request: {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}) => Promise<{ status: number; text(): Promise<string> }>;

export const fetchTransport: RefreshTransport = ({ url, headers, signal }) =>
  fetch(url, { headers, signal });

/**
 * callRefresh for a context whose API lives at `apiBase`: the one place the refresh request is
 * built and its answer read, whichever transport carries it.
 */
export function refreshCall(
  apiBase: string,
  transport: RefreshTransport,
  headers: Record<string, string> = {},
): RefreshDeps['callRefresh'] {
  return async (token, signal) => {
    const response = await transport({
      url: `${apiBase}/api/refresh`,
      headers: { ...headers, Accept: 'application/json', Authorization: `Bearer ${token}` },
      signal,
    });
    return { status: response.status, body: refreshBody(await response.text()) };
  };
}

/** The refresh answer's body: JSON when it is, else the text (a proxy's error page). */
function refreshBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
