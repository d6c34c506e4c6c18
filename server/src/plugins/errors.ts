// Every failure leaves as {"detail": ...} with a fitting status; only real faults are 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, type DetailEntry } from '../lib/http-error.ts';
import { API_CSP, setCommonHeaders } from './security-headers.ts';

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

function validationDetail(issues: ValidationIssue[], context: string | undefined): DetailEntry[] {
  return issues.map((v) => {
    const loc: (string | number)[] = [context ?? 'body'];
    for (const part of v.instancePath.split('/').filter(Boolean)) {
      loc.push(/^\d+$/.test(part) ? Number(part) : part);
    }
    if (v.keyword === 'required' && typeof v.params.missingProperty === 'string') {
      loc.push(v.params.missingProperty);
      return { loc, msg: 'Field required', type: 'missing' };
    }
    const field = loc.length > 1 ? String(loc[loc.length - 1]) : 'value';
    return { loc, msg: `${field} ${v.message ?? 'is not valid'}`, type: v.keyword };
  });
}

/**
 * Fastify's router errors (a path that is not valid URL encoding, a path parameter over its
 * length limit) in the same format; passed to Fastify as its frameworkErrors option.
 */
export function frameworkErrorAnswer(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  setCommonHeaders(request, reply);
  reply.header('Content-Security-Policy', API_CSP);
  const status =
    err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  void reply.status(status).send({
    detail:
      err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'The path is too long.' : 'The path is not valid.',
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.statusCode).send({ ...err.extra, detail: err.detail });
    }
    if (err.validation) {
      return reply.status(422).send({
        detail: validationDetail(err.validation as ValidationIssue[], err.validationContext),
      });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, body too large, wrong content type, rate limit.
      return reply.status(status).send({ detail: err.message });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ detail: 'Internal server error' });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ detail: `Not found: ${request.method} ${request.url.split('?')[0]}` });
  });
}
