// Every HTTP request's database statements queue by the request's age (server/src/db/gate.ts);
// a request the database cannot serve within its budget is answered 503 with Retry-After.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asRequest, RETRY_AFTER_SECONDS, type RequestClock } from '../db/gate.ts';

const clocks = new WeakMap<FastifyRequest, RequestClock>();

export function registerLoadShedding(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
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
