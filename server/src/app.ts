import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TrustProxy } from './config.ts';
import type { AppContext } from './context.ts';
import { registerAuth } from './plugins/auth.ts';
import { frameworkErrorAnswer, registerErrorHandling } from './plugins/errors.ts';
import { registerLoadShedding } from './plugins/load-shedding.ts';
import { AccessLog } from './plugins/request-log.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { schemaController } from './plugins/validation.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerRoutes } from './routes/index.ts';

export interface BuildOptions {
  /** false silences request logs (tests). */
  logger?: boolean;
}

/**
 * The client sends Content-Type: application/json on every call (spec section 7), also on a
 * DELETE or POST without a body: an empty body then means "no payload", not bad JSON.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}

/** Fastify's types leave out the hop count its runtime takes: the same rule as a function. */
function trustProxyOption(
  trust: TrustProxy,
): boolean | string[] | ((a: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** The HTTP application: API under /api, assets under /assets, the PWA everywhere else. */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // Typed as Fastify's logger so the app keeps Fastify's default instance type.
  const loggerInstance: FastifyBaseLogger = ctx.log;
  const app = Fastify({
    // The process's one logger, so requests and jobs share its level, stream and redaction.
    ...(opts.logger === false ? {} : { loggerInstance }),
    logController: new AccessLog(),
    bodyLimit: 1024 * 1024,
    // Behind a reverse proxy, request.ip is the client's (throttles count it), never a header
    // a client could forge from elsewhere.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    // Request ids in logs; answers never echo internals.
    genReqId: () => crypto.randomUUID(),
    schemaController,
    frameworkErrors: frameworkErrorAnswer,
  });
  registerLoadShedding(app);
  registerErrorHandling(app);
  registerSecurityHeaders(app, ctx.config);
  acceptEmptyJsonBodies(app);
  registerAuth(app, ctx);
  // A real liveness check of the database, ahead of the analysis's statements and transactions
  // (Db.ping). Server-Timing tells how long of the answer was the database's, so that a slow
  // answer is told apart from a blocked event loop (bench/hostile.ts).
  app.get('/api/health', { config: { public: true } }, async (_request, reply) => {
    const started = performance.now();
    await ctx.db.ping();
    void reply.header('server-timing', `db;dur=${(performance.now() - started).toFixed(1)}`);
    return { status: 'ok' };
  });
  await registerRoutes(app, ctx);
  await registerWebApp(app, ctx.config.webRoot);
  return app;
}
