// Session state (product-spec sections 3 and 4): who is signed in, the pending new e-mail
// during an e-mail change, and the layout setting.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

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

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    signedIn(state, action: PayloadAction<SessionUser>) {
      state.currentUser = action.payload;
      state.status = 'signedIn';
    },
    signedOut(state) {
      state.currentUser = null;
      state.status = 'signedOut';
      state.pendingEmail = null;
    },
    /** The API refused the token (401/403): a listener finishes the logout. */
    unauthorized(state) {
      state.currentUser = null;
      state.status = 'signedOut';
      state.pendingEmail = null;
    },
    /** The API says the initial password must change first: a listener leads there. */
    initialPasswordRequired(state) {
      if (state.currentUser) state.currentUser.user.mustChangePassword = true;
    },
    setPendingEmail(state, action: PayloadAction<string | null>) {
      state.pendingEmail = action.payload;
    },
    setLayout(state, action: PayloadAction<string>) {
      state.layout = action.payload;
    },
  },
});

export const {
  signedIn,
  signedOut,
  unauthorized,
  initialPasswordRequired,
  setPendingEmail,
  setLayout,
} = sessionSlice.actions;

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
