// Route guards of product-spec section 2, as a pure decision so they can be tested directly.
import { RESTORE_REDIRECT_DELAY_MS } from '../config/limits';
import { profilePath, ROUTES } from '../config/routes';
import type { SessionStatus } from '../lib/session-slice';
import { withCarriedQuery } from '../lib/navigation';

export type Access = 'public' | 'signedOutOnly' | 'signedIn';

export interface GuardInput {
  access: Access;
  pathname: string;
  search: string;
  status: SessionStatus;
  mustChangePassword: boolean;
}

export type GuardDecision =
  | { kind: 'render' }
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string; delayMs: number; returnTo?: string };

const CHANGE_PASSWORD = profilePath('CHANGE_PASSWORD');

function isChangePasswordScreen(pathname: string, search: string): boolean {
  return (
    pathname === ROUTES.profile &&
    new URLSearchParams(search).get('type')?.toLowerCase() === 'change_password'
  );
}

export function decideRoute({
  access,
  pathname,
  search,
  status,
  mustChangePassword,
}: GuardInput): GuardDecision {
  if (access === 'public') return { kind: 'render' };
  if (status === 'restoring') return { kind: 'wait' };
  const signedIn = status === 'signedIn';
  const redirect = (to: string, delayMs = 0, returnTo?: string): GuardDecision => ({
    kind: 'redirect',
    to: withCarriedQuery(to, search),
    delayMs,
    ...(returnTo ? { returnTo } : {}),
  });

  if (access === 'signedOutOnly') {
    if (!signedIn) return { kind: 'render' };
    return redirect(mustChangePassword ? CHANGE_PASSWORD : ROUTES.videoList);
  }
  if (!signedIn) {
    // The visitor comes back here after logging in.
    const query = search ? (search.startsWith('?') ? search : `?${search}`) : '';
    return redirect(ROUTES.login, RESTORE_REDIRECT_DELAY_MS, `${pathname}${query}`);
  }
  if (mustChangePassword && !isChangePasswordScreen(pathname, search)) {
    return redirect(CHANGE_PASSWORD);
  }
  return { kind: 'render' };
}
