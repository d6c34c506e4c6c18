// Restores the session once per page load, verifies it with the API, and renews the token
// while the app stays open (access tokens live one hour). It also hands each token to the
// upload queue, which runs in the service worker and cannot read the stored session.
import { useEffect, useRef } from 'react';
import { TOKEN_REFRESH_INTERVAL_MS } from '../config/limits';
import { restoreSession, verifySession } from '../lib/session';
import { selectIsSignedIn, type WithSession } from '../lib/session-slice';
import { useAppDispatch, useAppSelector } from '../lib/store-hooks';
import { inOrder } from './queue-hand-overs';
import { useSessionSync } from './use-session-sync';

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

  useSessionSync();
  useUploadQueueAuth();
  return null;
}

let queueStarted = false;

/** Login, restore and every refresh give the queue the new token; logout takes it away. */
function useUploadQueueAuth(): void {
  const token = useAppSelector((s: WithSession) => s.session.currentUser?.accessToken);
  const userId = useAppSelector((s: WithSession) => s.session.currentUser?.user.id);
  const hadToken = useRef(false);

  useEffect(() => {
    if (token && userId !== undefined) {
      hadToken.current = true;
      inOrder(async (client) => {
        if (!queueStarted) {
          queueStarted = true;
          client.startUploadQueue();
        }
        await client.setQueueAuth(token, String(userId));
      });
    } else if (hadToken.current) {
      hadToken.current = false;
      inOrder((client) => client.clearQueueAuth());
    }
  }, [token, userId]);
}
