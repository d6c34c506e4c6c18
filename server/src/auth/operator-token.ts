// The operator's import token (issue 42): `npm run admin -- import` runs beside the server and
// talks to it over HTTP as the user it imports for, with no password. It holds the installation's
// signing secrets (same DATA_DIR/secrets.json or environment as the server), so it signs a
// short-lived token naming the user and team; the server checks the signature and the expiry,
// finds the user, and lets the token reach only the calls an import makes
// (docs/decisions/operator-import.md). Whoever can read the secrets can already forge upload
// forms and asset links, so this gives no one a new power.
import crypto from 'node:crypto';
import type { Secrets } from '../secrets.ts';

export const OPERATOR_TOKEN_PREFIX = 'va-op.';
/** A token lives this long at most; the import signs a new one well before. */
export const OPERATOR_TOKEN_TTL_S = 15 * 60;

/** The calls an import token may make (method and route pattern). */
export const OPERATOR_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/videos/check-files',
  'POST /api/videos',
  'PUT /api/videos/:id/update-status',
  'GET /api/videos/:id',
]);

export interface OperatorClaims {
  /** The user's e-mail and team name, as the operator typed them. */
  email: string;
  team: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/** A key of its own, derived from the upload key: a token can never pass for a form or link. */
function operatorKey(secrets: Pick<Secrets, 'uploadKey'>): Buffer {
  return crypto.createHmac('sha256', secrets.uploadKey).update('operator-import-token/v1').digest();
}

const sign = (secrets: Pick<Secrets, 'uploadKey'>, payload: string): string =>
  crypto.createHmac('sha256', operatorKey(secrets)).update(payload).digest('base64url');

export function mintOperatorToken(
  secrets: Pick<Secrets, 'uploadKey'>,
  o: { email: string; team: string; nowMs: number },
): string {
  const claims: OperatorClaims & { n: string } = {
    email: o.email,
    team: o.team,
    exp: Math.floor(o.nowMs / 1000) + OPERATOR_TOKEN_TTL_S,
    n: crypto.randomBytes(8).toString('base64url'),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${OPERATOR_TOKEN_PREFIX}${payload}.${sign(secrets, payload)}`;
}

/** The claims of a valid, unexpired token; undefined for anything else. */
export function verifyOperatorToken(
  secrets: Pick<Secrets, 'uploadKey'>,
  token: string,
  nowMs: number,
): OperatorClaims | undefined {
  if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 2048) return undefined;
  const [payload = '', sig = ''] = token.slice(OPERATOR_TOKEN_PREFIX.length).split('.');
  const want = Buffer.from(sign(secrets, payload));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return undefined;
  let claims: Partial<OperatorClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OperatorClaims;
  } catch {
    return undefined;
  }
  const now = nowMs / 1000;
  if (
    typeof claims.email !== 'string' ||
    typeof claims.team !== 'string' ||
    typeof claims.exp !== 'number' ||
    claims.exp <= now ||
    claims.exp > now + OPERATOR_TOKEN_TTL_S + 60
  ) {
    return undefined;
  }
  return { email: claims.email, team: claims.team, exp: claims.exp };
}
