// The request log (pino, through Fastify): one line per request when it is answered, with its
// method, URL, status and time (Fastify's own pair of lines, "incoming" and "completed", cost
// a tenth of the server thread's time under load; issue 14). Without secrets: a logged URL
// keeps its path and the names of its query parameters, but the values of those that grant
// access (a reset link's token, the signatures and expiry of asset, report and upload-part
// links, S3's presigned fields) are replaced. Headers are not logged (Fastify's request
// serializer leaves them out), and the redact paths keep Authorization and Cookie out should a
// log call ever pass them.
import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';

export const REDACTED = '[redacted]';

/** Query parameters whose value is a credential (compared case-insensitively). */
const SECRET_PARAMS = new Set([
  'resettoken',
  'reset_token',
  'token',
  'access_token',
  'sig',
  'signature',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'awsaccesskeyid',
  'policy',
]);

/** The URL with the values of secret query parameters replaced; the rest as it was. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // Not valid percent-encoding: compare the raw name.
      }
      // Brackets (tags[]=…) and nesting name the same parameter.
      const base = name.split('[')[0]!.toLowerCase();
      return SECRET_PARAMS.has(base) && eq >= 0 ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): NonNullable<FastifyServerOptions['logger']> & { level: string } {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: REDACTED,
    },
    serializers: {
      req(request: LoggedRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}

/**
 * The access log: one line per answered request, with the request in it, instead of Fastify's
 * "incoming request" and "request completed" pair.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
