// The page's side of a token refresh (token-refresh.ts does the coordination and writes the token
// to the session database): the renewed token replaces the user's in the store and in the stored
// copy, unless someone signed out or in meanwhile.
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { apiUrl } from './api-url';
import { camelizeKeys } from './case-keys';
import { openSessionDb } from './session-db';
import { signedIn, type WithSession } from './session-slice';
import { clearStoredUser, isSessionUser, saveStoredUser } from './session-storage';
import { fetchTransport, refreshCall, refreshToken, type RefreshDeps } from './token-refresh';

export type RenewResult = 'renewed' | 'signed-out' | 'unavailable';

function pageDeps(): RefreshDeps {
  // The interface language (kept on <html lang>): the server writes mails in it.
  const language = document.documentElement.lang;
  return {
    session: () => openSessionDb(),
    callRefresh: refreshCall(
      apiUrl(''),
      fetchTransport,
      language ? { 'Accept-Language': language } : {},
    ),
    locks: typeof navigator === 'undefined' ? undefined : navigator.locks,
  };
}

/**
 * Renews `token` (the one a call was refused with, or the current one). 'signed-out' only when
 * the server refused the newest token; the caller then ends the session.
 */
export function renewSession(
  token: string,
): ThunkAction<Promise<RenewResult>, WithSession, unknown, UnknownAction> {
  return async (dispatch, getState) => {
    const before = getState().session.currentUser;
    if (!before) return 'signed-out';
    const outcome = await refreshToken(token, String(before.user.id), pageDeps());
    const current = getState().session.currentUser;
    if (!current) return 'signed-out';
    // Already replaced here (another caller of the same refresh), or signed in as someone else.
    if (current.accessToken !== token) return 'renewed';
    if (outcome.kind !== 'renewed') return outcome.kind;
    const answer = camelizeKeys(outcome.answer);
    const user = isSessionUser(answer) ? answer : { ...current, accessToken: outcome.token };
    await saveStoredUser(user);
    // Signed out while the copy was written: the copy goes too (the database dropped the answer).
    if (!getState().session.currentUser) {
      clearStoredUser();
      return 'signed-out';
    }
    dispatch(signedIn(user));
    return 'renewed';
  };
}
