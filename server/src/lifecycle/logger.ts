// The process's one logger: pino, structured JSON lines on stdout at LOG_LEVEL (OPERATIONS.md).
// Fastify logs through it (its request log is a child per request) and so do the jobs, the
// pipeline and the shutdown, each through a child that names its part (`component`). The
// redaction is here, so it is the same for every line: a logged URL keeps its path and the names
// of its query parameters, but the values of those that grant access (a reset link's token, the
// signatures and expiry of asset, report and upload-part links, S3's presigned fields) are
// replaced; headers are not logged (the req serializer leaves them out), and the redact paths
// keep Authorization and Cookie out should a log call ever pass them.
import { pino, type Logger } from 'pino';
import { logStream } from './log-stream.ts';

export type { Logger };

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

/**
 * The root logger at `level` (LOG_LEVEL), writing to `stream` (stdout by default; tests read
 * their own). Parts log through `logger.child({ component })`.
 */
export function createLogger(
  level: string,
  stream: { write(line: string): void } = logStream,
): Logger {
  return pino(
    {
      level,
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
    },
    stream,
  );
}
