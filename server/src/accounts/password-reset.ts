// Forgot and reset password. Reset links carry a random token; the database keeps its hash.
import type { Hashing } from '../auth/hash-slots.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { languageOr, type Language } from '../auth/validation.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../lib/http-error.ts';
import { RESET_MAIL_WINDOW_MS, RESET_MAILS_PER_WINDOW, RESET_TOKEN_TTL_MS } from '../limits.ts';
import { mailQueued, queueMail } from '../mail/queue-mail.ts';
import { SCOPES } from './throttle.ts';
import { templates } from '../mail/templates.ts';
import {
  consumePasswordReset,
  insertPasswordReset,
  invalidateUserResets,
  isLiveReset,
} from '../repositories/password-resets.ts';
import { revokeUserSessions } from '../repositories/sessions.ts';
import { countEvents, recordEvent } from '../repositories/throttle.ts';
import { findUserByEmail, setPassword } from '../repositories/users.ts';

export const INVALID_RESET_LINK = 'This link is invalid or has expired.';

/**
 * Queues a reset link mail when the account exists; does nothing otherwise. Runs in a job after
 * the answer has left (background.ts), so known and unknown e-mails answer alike. A few mails per window at most, so the
 * call cannot be used to flood someone's inbox. The mail is in the language the request was
 * made in when it names one, else in the user's.
 */
export async function sendResetLink(
  ctx: AppContext,
  email: string,
  requestLanguage?: Language,
): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const now = ctx.now();
  const sent = await countEvents(ctx.db, {
    scope: SCOPES.resetMail,
    key: user.id,
    since: now - RESET_MAIL_WINDOW_MS,
  });
  if (sent.count >= RESET_MAILS_PER_WINDOW) return;
  const token = newToken();
  const link = `${ctx.config.publicUrl}/reset-password?resetToken=${encodeURIComponent(token)}`;
  const message = templates.resetPassword[requestLanguage ?? languageOr(user.language, 'en')]({
    link,
    minutes: RESET_TOKEN_TTL_MS / 60_000,
  });
  // The link and its mail are stored together: both or neither.
  await ctx.db.tx(async (q) => {
    await recordEvent(q, { scope: SCOPES.resetMail, key: user.id, at: now });
    await insertPasswordReset(q, {
      userId: user.id,
      tokenHash: hashToken(token),
      now,
      ttlMs: RESET_TOKEN_TTL_MS,
    });
    await queueMail(ctx, q, { to: user.email, ...message }, RESET_TOKEN_TTL_MS, 'anonymous');
  });
  mailQueued('anonymous');
}

/**
 * Sets the new password with a valid token; the token and every session end with it. A link that
 * is not live answers before any hashing, so made-up tokens cost the server nothing.
 */
export async function resetPassword(
  ctx: AppContext,
  hashing: Hashing,
  token: string,
  password: string,
): Promise<void> {
  const tokenHash = hashToken(token);
  if (!(await isLiveReset(ctx.db, tokenHash, ctx.now()))) {
    throw new HttpError(401, INVALID_RESET_LINK);
  }
  const hash = await hashing(() => hashPassword(password));
  await ctx.db.tx(async (q) => {
    const now = ctx.now();
    // Consumed here, in one statement: of two racing resets with one link, one wins.
    const userId = await consumePasswordReset(q, tokenHash, now);
    if (!userId) throw new HttpError(401, INVALID_RESET_LINK);
    await setPassword(q, userId, hash, false);
    await invalidateUserResets(q, userId, now);
    await revokeUserSessions(q, userId);
  });
}
