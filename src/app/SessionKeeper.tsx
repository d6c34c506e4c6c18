// Restores the session once per page load, verifies it with the API, and renews the token
// while the app stays open (access tokens live one hour). It also hands each token to the
// upload queue, which runs in the service worker and cannot read the stored session.
import { useEffect, useRef } from 'react';
import { TOKEN_REFRESH_INTERVAL_MS } from '../config/limits';
import { restoreSession, verifySession } from '../lib/session';
import { selectIsSignedIn, type WithSession } from '../lib/session-slice';
import { useAppDispatch, useAppSelector } from '../lib/store-hooks';
import type * as QueueClientModule from '../upload-queue/queue-client';
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

type QueueClient = typeof QueueClientModule;
/** Loaded only once someone is signed in: the first screens stay within their size budget. */
const queueClient = (): Promise<QueueClient> => import('../upload-queue/queue-client');
let queueStarted = false;
let handOvers: Promise<unknown> = Promise.resolve();

/**
 * Runs queue-auth steps one after the other, in the order the session changed: a refresh revokes
 * the token before it, so an older token handed over after a newer one (two async chains that
 * finished out of order) left the queue with a dead token, and uploads waiting for a sign-in
 * that had already happened.
 */
function inOrder(step: (client: QueueClient) => Promise<void>): void {
  handOvers = handOvers
    .then(async () => step(await queueClient()))
    .catch((error: unknown) => console.warn('Upload queue not told of the session', error));
}

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
