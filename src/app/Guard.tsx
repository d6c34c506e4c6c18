// Applies a guard decision: renders, waits for the session restore, or redirects.
import { useDeferredValue, useEffect, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { navigateTo } from '../lib/navigation';
import { rememberReturnTo } from '../lib/return-to';
import { selectMustChangePassword, selectSessionStatus } from '../lib/session-slice';
import { useAppSelector } from '../lib/store-hooks';
import { decideRoute, type Access } from './guards';

export function Guard({ access, children }: { access: Access; children: ReactNode }) {
  const [pathname] = useLocation();
  const search = useSearch();
  const status = useAppSelector(selectSessionStatus);
  const mustChangePassword = useAppSelector(selectMustChangePassword);
  const decision = decideRoute({ access, pathname, search, status, mustChangePassword });

  const redirectTo = decision.kind === 'redirect' ? decision.to : null;
  const delayMs = decision.kind === 'redirect' ? decision.delayMs : 0;
  const returnTo = decision.kind === 'redirect' ? decision.returnTo : undefined;
  useEffect(() => {
    if (redirectTo === null) return;
    const timer = window.setTimeout(() => {
      if (returnTo) rememberReturnTo(returnTo);
      navigateTo(redirectTo, { replace: true });
    }, delayMs);
    return () => window.clearTimeout(timer);
  }, [redirectTo, delayMs, returnTo]);

  // Once the session is restored the screen appears as a deferred update: the store's change is
  // rendered at once (and cheaply) and the whole screen then renders in slices that leave the
  // main thread free, instead of in one blocking pass (issue 8). Leaving a screen is immediate.
  const allowed = decision.kind === 'render';
  const shown = useDeferredValue(allowed);
  return allowed && shown ? <>{children}</> : null;
}

/** Sends unknown paths to the video list, keeping the carried query parameter. */
export function RedirectTo({ to }: { to: string }) {
  useEffect(() => navigateTo(to, { replace: true }), [to]);
  return null;
}
