// Session state (product-spec sections 3 and 4): who is signed in, the pending new e-mail
// during an e-mail change, and the layout setting. A plain reducer, not an RTK slice: it is in the
// entry of the first screens, which carry no Redux Toolkit (issue 29, 100 KB; see
// docs/decisions/first-screen-budget.md). RTK comes with the API (src/lib/api.ts).
import type { UnknownAction } from 'redux';

export interface UserSummary {
  id: number | string;
  email: string;
  fullName?: string | null;
  username?: string | null;
  team?: { name: string } | null;
  mustChangePassword?: boolean;
}

/** The login (or refresh) answer, camelCased: the token plus the user it belongs to. */
export interface SessionUser {
  accessToken: string;
  tokenType?: string;
  user: UserSummary;
}

export type SessionStatus = 'restoring' | 'signedIn' | 'signedOut';

export interface SessionState {
  currentUser: SessionUser | null;
  status: SessionStatus;
  pendingEmail: string | null;
  layout: string;
}

export const initialSessionState: SessionState = {
  currentUser: null,
  status: 'restoring',
  pendingEmail: null,
  layout: 'Application',
};

type PayloadAction<P> = { type: string; payload: P };

/** An action creator with its `type` and a `match` guard, like RTK's `createAction`. */
function sessionAction<P = void>(name: string) {
  const type = `session/${name}`;
  const create = (payload: P): PayloadAction<P> => ({ type, payload });
  const match = (action: unknown): action is PayloadAction<P> =>
    typeof action === 'object' && action !== null && (action as { type?: unknown }).type === type;
  return Object.assign(create, { type, match });
}

export const signedIn = sessionAction<SessionUser>('signedIn');
export const signedOut = sessionAction('signedOut');
/** The API refused the token (401/403): the store's session effects finish the logout. */
export const unauthorized = sessionAction('unauthorized');
/** The API says the initial password must change first: the store's session effects lead there. */
export const initialPasswordRequired = sessionAction('initialPasswordRequired');
export const setPendingEmail = sessionAction<string | null>('setPendingEmail');
export const setLayout = sessionAction<string>('setLayout');

export function sessionReducer(
  state: SessionState = initialSessionState,
  action: UnknownAction,
): SessionState {
  if (signedIn.match(action)) return { ...state, currentUser: action.payload, status: 'signedIn' };
  if (signedOut.match(action) || unauthorized.match(action))
    return { ...state, currentUser: null, status: 'signedOut', pendingEmail: null };
  if (initialPasswordRequired.match(action)) {
    const current = state.currentUser;
    if (!current) return state;
    const user = { ...current.user, mustChangePassword: true };
    return { ...state, currentUser: { ...current, user } };
  }
  if (setPendingEmail.match(action)) return { ...state, pendingEmail: action.payload };
  if (setLayout.match(action)) return { ...state, layout: action.payload };
  return state;
}

export interface WithSession {
  session: SessionState;
}

export const selectCurrentUser = (state: WithSession): SessionUser | null =>
  state.session.currentUser;
export const selectSessionStatus = (state: WithSession): SessionStatus => state.session.status;
export const selectIsSignedIn = (state: WithSession): boolean =>
  Boolean(state.session.currentUser?.accessToken);
export const selectMustChangePassword = (state: WithSession): boolean =>
  Boolean(state.session.currentUser?.user.mustChangePassword);
