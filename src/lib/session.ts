// Session transitions of product-spec section 4: sign in, restore, verify, logout.
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { ROUTES } from '../config/routes';
import { loadedApi } from './api-registry';
import { request } from './base-query';
import { navigateTo } from './navigation';
import { openSessionDb } from './session-db';
import { clearStoredUser, isSessionUser, loadStoredUser, saveStoredUser } from './session-storage';
import { signedIn, signedOut, type SessionUser, type WithSession } from './session-slice';

type SessionThunk<R> = ThunkAction<R, WithSession, unknown, UnknownAction>;

/**
 * Stores and signs in the answer of login. Without an access token it fails. The token goes to
 * the session database first, the one store every context reads it from; the stored user is
 * its copy for the first render (session-storage.ts).
 */
export function startSession(answer: unknown): SessionThunk<Promise<SessionUser>> {
  return async (dispatch) => {
    if (!isSessionUser(answer)) throw new Error('The answer carries no access token.');
    await (await openSessionDb()).handOverAuth(answer.accessToken, String(answer.user.id));
    await saveStoredUser(answer);
    dispatch(signedIn(answer));
    return answer;
  };
}

/** Keeps the stored copy in step after a local change (for example the password was changed). */
export function persistSession(): SessionThunk<Promise<void>> {
  return async (_dispatch, getState) => {
    const user = getState().session.currentUser;
    if (user) await saveStoredUser(user);
  };
}

let restored: Promise<boolean> | null = null;

/**
 * The stored copy with the session database's token, which is the one that counts: a refresh in
 * the service worker may have rotated it since the copy was written. A copy whose token the
 * database never had (written before it held the token) is handed over to it.
 */
async function withCurrentToken(stored: SessionUser): Promise<SessionUser> {
  const session = await openSessionDb();
  const auth = await session.getAuth();
  const userId = String(stored.user.id);
  if (auth?.userId === userId) return { ...stored, accessToken: auth.token };
  await session.handOverAuth(stored.accessToken, userId);
  return stored;
}

/** Reads the stored user once per page load; true when it signed the user in. */
export function restoreSession(): SessionThunk<Promise<boolean>> {
  return (dispatch) => {
    restored ??= (async () => {
      const stored = await loadStoredUser();
      if (stored) {
        const user = await withCurrentToken(stored);
        dispatch(signedIn(user));
        return true;
      }
      clearStoredUser();
      dispatch(signedOut());
      return false;
    })();
    return restored;
  };
}

/** For tests: lets the next restoreSession read storage again. */
export function resetRestoreForTests(): void {
  restored = null;
}

/**
 * Asks the API for a fresh token (renewSession: once across tabs and the service worker). Only a
 * refusal of the newest token signs out; an unreachable or failing server keeps the session
 * (see docs/decisions/sessions-under-concurrency.md).
 */
export function verifySession(): SessionThunk<Promise<boolean>> {
  return (dispatch, getState) => {
    const verifying = (async () => {
      const token = getState().session.currentUser?.accessToken;
      if (!token) return false;
      // Loaded when first needed: the signed-out first screens carry no renewal (issue 29, 100 KB).
      const { renewSession } = await import('./session-renew');
      const result = await dispatch(renewSession(token));
      if (result !== 'signed-out') return true;
      if (getState().session.currentUser?.accessToken === token) dispatch(endSession());
      return false;
    })();
    inFlight.add(verifying);
    void verifying.finally(() => inFlight.delete(verifying)).catch(() => undefined);
    return verifying;
  };
}

const inFlight = new Set<Promise<boolean>>();

/** For tests: resolves once every verification started so far has ended (before storage goes). */
export async function verificationsSettled(): Promise<void> {
  await Promise.allSettled([...inFlight]);
}

/** Clears every trace of the session locally: stored user, state and cached answers. */
export function endSession(): SessionThunk<void> {
  return (dispatch) => {
    clearStoredUser();
    dispatch(signedOut());
    const api = loadedApi();
    if (api) dispatch(api.util.resetApiState());
  };
}

/** Logout: tells the API (best effort), clears the session and goes to Login. */
export function logout(options: { callServer?: boolean } = {}): SessionThunk<Promise<void>> {
  return async (dispatch, getState) => {
    const token = getState().session.currentUser?.accessToken;
    dispatch(endSession());
    navigateTo(ROUTES.login);
    if (options.callServer !== false && token) {
      await request({ url: '/api/logout', method: 'POST' }, token).catch(() => undefined);
    }
  };
}
