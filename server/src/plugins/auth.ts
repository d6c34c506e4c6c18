// Bearer-token authentication for every /api route except the public ones, and the gate that
// keeps a new account on "change your initial password" until it does.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ANSWER_OWNER_HEADER } from '../../../src/config/offline.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../lib/http-error.ts';
import {
  OPERATOR_ROUTES,
  OPERATOR_TOKEN_PREFIX,
  verifyOperatorToken,
} from '../auth/operator-token.ts';
import { findSessionWithUser, markUsed } from '../repositories/sessions.ts';
import { findUserByEmail } from '../repositories/users.ts';
import type { UserRow } from '../repositories/users.ts';

export interface AuthInfo {
  user: UserRow;
  sessionId: string;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
  interface FastifyContextConfig {
    /** No token needed (login, forgot and reset password, health). */
    public?: boolean;
    /** Allowed while the initial password is still unchanged. */
    allowInitialPassword?: boolean;
    /** Accepts a session whose access time has passed (refresh). */
    allowExpired?: boolean;
  }
}

export const MUST_CHANGE_PASSWORD =
  'You must change your initial password before you can continue.';
export const NOT_AUTHENTICATED = 'Not authenticated';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auth', null);
  // onRequest, before the body is read and validated: a caller without a valid session gets 401
  // (and a new account 403) whatever it sends, and its body is never read.
  app.addHook('onRequest', async (request, reply) => {
    const cfg = request.routeOptions.config;
    const url = request.routeOptions.url ?? '';
    if (!url.startsWith('/api/') || cfg.public) return;
    const token = bearerToken(request);
    if (!token) throw new HttpError(401, NOT_AUTHENTICATED);
    if (token.startsWith(OPERATOR_TOKEN_PREFIX)) {
      request.auth = await operatorAuth(ctx, request, token);
      return;
    }
    const found = await findSessionWithUser(ctx.db, token);
    const now = ctx.now();
    if (!found || found.session.refresh_until.getTime() <= now)
      throw new HttpError(401, 'Session expired');
    const { session, user } = found;
    if (!cfg.allowExpired && session.expires_at.getTime() <= now)
      throw new HttpError(401, 'Session expired');
    if (!user) throw new HttpError(401, NOT_AUTHENTICATED);
    if (user.must_change_password && !cfg.allowInitialPassword) {
      throw new HttpError(403, MUST_CHANGE_PASSWORD);
    }
    // A token in use ends the lost-answer tolerance of the one it replaced (auth/refresh.ts).
    if (session.used_at === null) await markUsed(ctx.db, session.session_id, now);
    request.auth = { user, sessionId: session.session_id, token };
    // Whose answer this is: the service worker caches it for offline reading by that user only.
    reply.header(ANSWER_OWNER_HEADER, String(user.id));
  });
}

/**
 * The operator's import token (auth/operator-token.ts): the named user of the named team, on the
 * import's calls only. No session: it cannot refresh, log out or change the account.
 */
async function operatorAuth(
  ctx: AppContext,
  request: FastifyRequest,
  token: string,
): Promise<AuthInfo> {
  const claims = verifyOperatorToken(ctx.secrets, token, ctx.now());
  if (!claims) throw new HttpError(401, 'Session expired');
  const route = `${request.method} ${request.routeOptions.url ?? ''}`;
  if (!OPERATOR_ROUTES.has(route)) {
    throw new HttpError(403, "An operator's import token can only import videos.");
  }
  const user = await findUserByEmail(ctx.db, claims.email);
  if (!user) throw new HttpError(403, `No user with the e-mail ${claims.email}.`);
  if (user.team_name !== claims.team) {
    throw new HttpError(403, `${user.email} is not in team "${claims.team}".`);
  }
  return { user, sessionId: '', token };
}

/** The signed-in user of a route that is not public. */
export function requireAuth(request: FastifyRequest): AuthInfo {
  if (!request.auth) throw new HttpError(401, NOT_AUTHENTICATED);
  return request.auth;
}
