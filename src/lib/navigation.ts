// Navigation outside React (after logout, from the API layer), with the carried query parameter.
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { CARRIED_QUERY_PARAM, SIGNED_OUT_ONLY_PATHS } from '../config/routes';

/**
 * Keeps the tsiletihw parameter of the current query on a target that has no query of its own
 * (product-spec section 2).
 */
export function withCarriedQuery(target: string, currentSearch: string): string {
  if (target.includes('?')) return target;
  const carried = new URLSearchParams(currentSearch).get(CARRIED_QUERY_PARAM);
  if (carried === null) return target;
  const [path, hash] = splitHash(target);
  return `${path}?${CARRIED_QUERY_PARAM}=${encodeURIComponent(carried)}${hash}`;
}

function splitHash(target: string): [string, string] {
  const index = target.indexOf('#');
  return index < 0 ? [target, ''] : [target.slice(0, index), target.slice(index)];
}

export function navigateTo(target: string, options: { replace?: boolean } = {}): void {
  browserNavigate(withCarriedQuery(target, window.location.search), options);
}

/** Login, ForgotPassword and ResetPassword: where a 401/403 does not log out or redirect. */
export function isOnLoginFlowPage(pathname: string = window.location.pathname): boolean {
  return SIGNED_OUT_ONLY_PATHS.includes(normalisePath(pathname));
}

export function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}
