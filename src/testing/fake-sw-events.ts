// Service-worker events for running workbox strategies outside a worker (jsdom): the classes
// workbox checks requests against, a fetch event whose waitUntil work a test can wait for, and the
// route a module registered, to hand requests to.
import { vi } from 'vitest';
import { CacheExpiration } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';

export class FakeExtendableEvent extends Event {
  private readonly extensions: Promise<unknown>[] = [];

  waitUntil(promise: Promise<unknown>): void {
    this.extensions.push(promise);
  }

  /** Resolves once every promise handed to waitUntil (and any they added) has settled. */
  async settled(): Promise<void> {
    for (let seen = -1; seen !== this.extensions.length;) {
      seen = this.extensions.length;
      await Promise.allSettled(this.extensions);
    }
  }
}

class FakeFetchEvent extends FakeExtendableEvent {}

/** Call in beforeEach: workbox refers to these globals, and its development logs are quiet. */
export function useServiceWorkerGlobals(): void {
  vi.stubGlobal('ExtendableEvent', FakeExtendableEvent);
  vi.stubGlobal('FetchEvent', FakeFetchEvent);
  vi.stubGlobal('__WB_DISABLE_DEV_LOGS', true);
}

type RouteMatch = (options: { url: URL; request: Request }) => boolean;
type RouteHandler = (options: {
  request: Request;
  event: FakeExtendableEvent;
}) => Promise<Response>;

/**
 * Workbox expires cache entries in the background (its plugin does not wait for it): collects
 * each run, so a test file can wait for them all before its environment is torn down (a run
 * still going then failed with "self is not defined").
 */
export function trackExpirations(): () => Promise<void> {
  const runs: Promise<void>[] = [];
  const expire = CacheExpiration.prototype.expireEntries;
  vi.spyOn(CacheExpiration.prototype, 'expireEntries').mockImplementation(function (
    this: CacheExpiration,
  ) {
    const run = expire.call(this);
    runs.push(run);
    return run;
  });
  return async () => {
    while (runs.length > 0) await Promise.allSettled(runs.splice(0));
  };
}

/** The route the module under test registered, in a file that mocks registerRoute with vi.fn(). */
export function registeredRoute(): [RouteMatch, RouteHandler] {
  return vi.mocked(registerRoute).mock.calls[0] as unknown as [RouteMatch, RouteHandler];
}

/** Asks the route as a page would; answers once the worker's cache work (waitUntil) is done too. */
export async function fetchThrough(handler: RouteHandler, request: Request): Promise<Response> {
  const event = new FakeExtendableEvent('fetch');
  try {
    return await handler({ request, event });
  } finally {
    await event.settled();
  }
}
