// Load shedding (issue 14). Every HTTP request's database statements queue by the request's age
// (server/src/db/gate.ts); a request the database cannot serve within its budget is answered 503
// with Retry-After. Time spent before a request is even read (an event loop kept late by other
// requests or by an analysis step's JavaScript) is invisible to that budget, so while the loop
// stays late by more than EVENT_LOOP_SHED_MS, new API requests are answered 503 at once: cheap
// answers let the loop catch up instead of queueing more work behind the wait.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asRequest, RETRY_AFTER_SECONDS, ServerBusyError, type RequestClock } from '../db/gate.ts';
import { EventLoopLag } from '../lib/event-loop-lag.ts';

/** Sustained event-loop delay (ms) from which new API requests are shed. */
export const EVENT_LOOP_SHED_MS = 500;

const clocks = new WeakMap<FastifyRequest, RequestClock>();

/**
 * A health probe must see a live server: it is never shed, neither on the loop's delay nor by
 * the database queue's budget (its statement waits like a job's, with no deadline; with the
 * budget, a probe sent while the loop was late was answered 503 on a busy machine).
 */
const isHealthCheck = (url: string): boolean => url.startsWith('/api/health');

export function registerLoadShedding(app: FastifyInstance, lag = new EventLoopLag().start()): void {
  app.addHook('onClose', async () => lag.stop());
  app.addHook('onRequest', (request, _reply, done) => {
    if (isHealthCheck(request.url)) {
      done();
      return;
    }
    if (lag.sustainedMs > EVENT_LOOP_SHED_MS && request.url.startsWith('/api/')) {
      done(new ServerBusyError());
      return;
    }
    const clock: RequestClock = { arrivedAt: performance.now(), open: true };
    clocks.set(request, clock);
    asRequest(clock, done);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  });
  app.addHook('onResponse', async (request) => {
    const clock = clocks.get(request);
    if (clock) clock.open = false;
  });
}
