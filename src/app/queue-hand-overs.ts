// The session changes handed to the upload queue, one after the other. Its client module loads
// only once someone is signed in (the first screens stay within their size budget).
import type * as QueueClientModule from '../upload-queue/queue-client';

export type QueueClient = typeof QueueClientModule;

const queueClient = (): Promise<QueueClient> => import('../upload-queue/queue-client');
let handOvers: Promise<unknown> = Promise.resolve();

/**
 * Runs queue-auth steps one after the other, in the order the session changed: a refresh revokes
 * the token before it, so an older token handed over after a newer one (two async chains that
 * finished out of order) left the queue with a dead token, and uploads waiting for a sign-in
 * that had already happened.
 */
export function inOrder(step: (client: QueueClient) => Promise<void>): void {
  handOvers = handOvers
    .then(async () => step(await queueClient()))
    .catch((error: unknown) => console.warn('Upload queue not told of the session', error));
}

/**
 * Settles once every hand-over so far is done. The client tests wait for it after each test: a
 * test that signed in otherwise left the queue's client module loading while its environment
 * was torn down.
 */
export function handOversSettled(): Promise<void> {
  return handOvers.then(() => undefined);
}
