// Sign-in and password calls: login, refresh, logout, profile, change/forgot/reset password.
import type { FastifyInstance } from 'fastify';
import { queueResetLink } from '../../accounts/background.ts';
import { INVALID_RESET_LINK, resetPassword } from '../../accounts/password-reset.ts';
import { profileOf, tokenAnswer } from '../../accounts/profile.ts';
import { pruneThrottle, recordLoginSuccess, reserveLoginAttempt } from '../../accounts/throttle.ts';
import { dummyHash, hashPassword, verifyPassword } from '../../auth/passwords.ts';
import {
  headerLanguage,
  requireConfirmation,
  requireEmail,
  requireNewPassword,
  requireString,
} from '../../auth/validation.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import { closeMailer } from '../../mail/create.ts';
import { refreshSession } from '../../auth/refresh.ts';
import { bearerToken, NOT_AUTHENTICATED, requireAuth } from '../../plugins/auth.ts';
import { invalidateUserResets } from '../../repositories/password-resets.ts';
import {
  createSession,
  pruneSessions,
  revokeSession,
  revokeUserSessions,
} from '../../repositories/sessions.ts';
import {
  findUserByEmail,
  findUserById,
  setLanguage,
  setPassword,
  type UserRow,
} from '../../repositories/users.ts';
import { registerUserRoutes } from '../users/index.ts';
import { bodyOf, checkCurrentPassword, textBody, tooManyAttempts, withHashSlot } from './guards.ts';

export const WRONG_CREDENTIALS = 'The email or password is incorrect.';
export const FORGOT_PASSWORD_ANSWER =
  'If there is an account associated with this email, you will receive instructions on how to reset your password.';

const PUBLIC = { public: true } as const;

const loginBody = textBody(['email', 'password']);
const changePasswordBody = textBody(
  ['current_password', 'new_password'],
  ['confirmation_password'],
);
const forgotBody = textBody(['email']);
const resetBody = textBody(
  ['password', 'resetToken', 'reset_token'],
  ['confirmationPassword', 'confirmation_password'],
);

/**
 * Signing in (and each refresh) records the interface language the app is used in, so mails
 * sent later, such as a reset link, are in that language.
 */
async function rememberLanguage(
  ctx: AppContext,
  user: UserRow,
  header: string | undefined,
): Promise<UserRow> {
  const language = headerLanguage(header);
  if (!language || language === user.language) return user;
  await setLanguage(ctx.db, user.id, language);
  return { ...user, language };
}

/** Auth and user account routes: the one registration of this area. */
export async function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerAuthRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  app.addHook('onClose', async () => closeMailer(ctx));
}

function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/login', { config: PUBLIC, schema: loginBody }, async (request, reply) => {
    const body = bodyOf(request);
    const email = requireEmail(body.email);
    const password = requireString(body.password, 'password');
    const user = await withHashSlot(request, reply, async (hashing) => {
      // Counted as a failure before the password is checked; a right one clears it.
      const wait = await reserveLoginAttempt(ctx, email, request.ip);
      if (wait > 0) throw tooManyAttempts(reply, wait);
      const found = await findUserByEmail(ctx.db, email);
      // Unknown e-mails still pay for one scrypt, so timing does not tell them apart.
      const stored = found?.password_hash ?? (await hashing(dummyHash));
      const matches = await hashing(() => verifyPassword(password, stored));
      if (!found || !matches) throw new HttpError(401, WRONG_CREDENTIALS);
      return found;
    });
    await recordLoginSuccess(ctx, email, request.ip);
    const token = await createSession(ctx.db, user.id, ctx.now());
    // Housekeeping rides along with logins: no timer, and it happens where rows are made.
    await pruneThrottle(ctx);
    await pruneSessions(ctx.db, ctx.now());
    return tokenAnswer(
      token,
      await rememberLanguage(ctx, user, request.headers['accept-language']),
    );
  });

  // Public for the auth hook: the route checks the token itself, since a just-rotated one is
  // still answered within its grace window (server/src/auth/refresh.ts).
  app.get('/api/refresh', { config: PUBLIC }, async (request) => {
    const presented = bearerToken(request);
    if (!presented) throw new HttpError(401, NOT_AUTHENTICATED);
    const result = await refreshSession(ctx.db, presented, ctx.now());
    if (result.kind === 'reused') {
      request.log.warn(
        {
          event: 'session_token_reused',
          userId: result.userId,
          familyId: result.familyId,
          sessionId: result.sessionId,
          liveTokensRevoked: result.liveRevoked,
          ip: request.ip,
        },
        'refresh token reused after its grace window: session family revoked as stolen',
      );
    }
    if (result.kind !== 'ok') throw new HttpError(401, 'Session expired');
    const found = await findUserById(ctx.db, result.userId);
    if (!found) throw new HttpError(401, NOT_AUTHENTICATED);
    const user = await rememberLanguage(ctx, found, request.headers['accept-language']);
    return tokenAnswer(result.token, user);
  });

  app.post(
    '/api/logout',
    { config: { allowExpired: true, allowInitialPassword: true } },
    async (request) => {
      await revokeSession(ctx.db, requireAuth(request).sessionId);
      return { status: 'logged_out' };
    },
  );

  app.get('/api/profile', { config: { allowInitialPassword: true } }, async (request) =>
    profileOf(requireAuth(request).user),
  );

  app.post(
    '/api/change-password',
    { config: { allowInitialPassword: true }, schema: changePasswordBody },
    async (request, reply) => {
      const auth = requireAuth(request);
      const body = bodyOf(request);
      const current = requireString(body.current_password, 'current_password');
      const next = requireNewPassword(body.new_password, 'new_password');
      requireConfirmation(next, body.confirmation_password);
      const hash = await withHashSlot(request, reply, async (hashing) => {
        await checkCurrentPassword(ctx, reply, hashing, auth.user, current);
        if (next === current) {
          throw new HttpError(422, 'The new password must be different from the current password.');
        }
        return hashing(() => hashPassword(next));
      });
      // A stolen session or a reset link in a read mailbox must not outlive the old password.
      await ctx.db.tx(async (q) => {
        await setPassword(q, auth.user.id, hash, false);
        await revokeUserSessions(q, auth.user.id, auth.sessionId);
        await invalidateUserResets(q, auth.user.id, ctx.now());
      });
      const user = await findUserById(ctx.db, auth.user.id);
      return profileOf(user ?? auth.user);
    },
  );

  app.post('/api/forgot-password', { config: PUBLIC, schema: forgotBody }, async (request) => {
    const email = requireEmail(bodyOf(request).email);
    const language = headerLanguage(request.headers['accept-language']);
    // Nothing about the account is looked at before answering, and a throttled request is
    // answered like an accepted one: same answer, same time.
    await queueResetLink(ctx, email, language, request.ip);
    return { detail: FORGOT_PASSWORD_ANSWER };
  });

  app.post('/api/reset-password', { config: PUBLIC, schema: resetBody }, async (request, reply) => {
    const body = bodyOf(request);
    // The spec's payload is camelCase; snake_case is accepted too, like every other call.
    const token = body.resetToken ?? body.reset_token;
    const confirmation = body.confirmationPassword ?? body.confirmation_password;
    if (typeof token !== 'string' || token === '') throw new HttpError(401, INVALID_RESET_LINK);
    const password = requireNewPassword(body.password, 'password');
    requireConfirmation(password, confirmation);
    await withHashSlot(request, reply, (hashing) => resetPassword(ctx, hashing, token, password));
    return { detail: 'Your password has been reset. Please try logging in' };
  });
}
