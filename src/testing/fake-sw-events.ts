// Service-worker events for running workbox strategies outside a worker (jsdom): the classes
// workbox checks requests against, and a fetch event whose waitUntil work a test can wait for.
import { vi } from 'vitest';

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
