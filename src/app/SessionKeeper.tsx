// Restores the session once per page load, verifies it with the API, and renews the token
// while the app stays open (access tokens live one hour).
import { useEffect } from 'react';
import { TOKEN_REFRESH_INTERVAL_MS } from '../config/limits';
import { restoreSession, verifySession } from '../lib/session';
import { selectIsSignedIn } from '../lib/session-slice';
import { useAppDispatch, useAppSelector } from '../lib/store-hooks';

export function SessionKeeper() {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector(selectIsSignedIn);

  useEffect(() => {
    void dispatch(restoreSession()).then((restored) => {
      if (restored) void dispatch(verifySession());
    });
  }, [dispatch]);

  useEffect(() => {
    if (!signedIn) return;
    const timer = window.setInterval(
      () => void dispatch(verifySession()),
      TOKEN_REFRESH_INTERVAL_MS,
    );
    return () => window.clearInterval(timer);
  }, [dispatch, signedIn]);

  return null;
}
