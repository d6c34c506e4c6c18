// Changing the sign-in e-mail: a 6-digit code goes to the new address; entering it there proves
// the address. The code's hash is stored, with its expiry and the number of tries used.
import crypto from 'node:crypto';
import type { Language } from '../auth/validation.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { fieldError, HttpError } from '../lib/http-error.ts';
import {
  EMAIL_CODE_MAX_ATTEMPTS,
  EMAIL_CODE_PER_HOUR,
  EMAIL_CODE_RESEND_MS,
  EMAIL_CODE_TTL_MS,
  MAIL_NOTICE_TTL_MS,
} from '../limits.ts';
import { OTP_LENGTH } from '../../../src/config/limits.ts';
import { mailQueued, queueMail } from '../mail/queue-mail.ts';
import { templates } from '../mail/templates.ts';
import {
  deleteEmailChange,
  findEmailChange,
  takeEmailChangeAttempt,
  upsertEmailChange,
} from '../repositories/email-changes.ts';
import { invalidateUserResets } from '../repositories/password-resets.ts';
import { revokeUserSessions } from '../repositories/sessions.ts';
import { countEvents } from '../repositories/throttle.ts';
import { findUserByEmail, setEmail, setLanguage, type UserRow } from '../repositories/users.ts';
import { reserveAttempt, SCOPES } from './throttle.ts';

const CODE_SCOPE = SCOPES.emailCode;
const HOUR_MS = 60 * 60 * 1000;

/** Only when verifying a right code: the request answers a taken address like a free one. */
export const EMAIL_NOT_AVAILABLE = 'new_email cannot be used. Please choose another address.';
export const NO_PENDING_CHANGE = 'There is no pending e-mail change. Please request a new code.';
export const CODE_EXPIRED = 'The code has expired. Please request a new code.';
export const CODE_EXHAUSTED = 'Too many incorrect codes. Please request a new code.';

function codeHash(userId: string, code: string): string {
  return crypto.createHash('sha256').update(`${userId}:${code}`).digest('hex');
}

export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

function sameEmail(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The new address must differ from the current one (saying so tells nothing about others). */
export function assertNewAddress(user: UserRow, newEmail: string): void {
  if (sameEmail(newEmail, user.email)) {
    throw fieldError('new_email', 'new_email is the same as your current e-mail address');
  }
}

async function takenByOther(ctx: AppContext, user: UserRow, email: string): Promise<boolean> {
  const other = await findUserByEmail(ctx.db, email);
  return other !== undefined && other.id !== user.id;
}

async function codeWaitSeconds(q: Queryable, now: number, userId: string): Promise<number> {
  const lastHour = await countEvents(q, { scope: CODE_SCOPE, key: userId, since: now - HOUR_MS });
  if (!lastHour.last) return 0;
  const last = lastHour.last.getTime();
  let until = last + EMAIL_CODE_RESEND_MS;
  if (lastHour.count >= EMAIL_CODE_PER_HOUR && lastHour.first) {
    // The oldest send of the hour must leave the window first.
    until = Math.max(until, lastHour.first.getTime() + HOUR_MS);
  }
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

/**
 * Counts a code request before anything else is looked at (parallel requests count like
 * sequential ones). Answers the seconds the user must wait (nothing counted), or 0.
 */
export function reserveCodeSend(ctx: AppContext, userId: string): Promise<number> {
  return reserveAttempt(
    ctx,
    [`${CODE_SCOPE}:${userId}`],
    (q) => codeWaitSeconds(q, ctx.now(), userId),
    { scope: CODE_SCOPE, key: userId },
  );
}

/**
 * Stores a fresh code for the new address, replacing any earlier one, and queues its mail. An
 * address another account uses gets a pending change as well, whose code is sent nowhere: the
 * answer, the next step and its "incorrect code" replies are the same as for a free address, so
 * the call cannot be used to learn which addresses have accounts.
 */
export async function requestEmailChange(
  ctx: AppContext,
  user: UserRow,
  newEmail: string,
  language: Language,
): Promise<void> {
  const taken = await takenByOther(ctx, user, newEmail);
  const now = ctx.now();
  const code = String(crypto.randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
  const message = templates.emailCode[language]({ code, minutes: EMAIL_CODE_TTL_MS / 60_000 });
  // The code and its mail are stored together: both or neither.
  await ctx.db.tx(async (q) => {
    await upsertEmailChange(q, {
      userId: user.id,
      newEmail,
      codeHash: codeHash(user.id, code),
      language,
      now,
      ttlMs: EMAIL_CODE_TTL_MS,
    });
    await setLanguage(q, user.id, language);
    if (!taken) await queueMail(ctx, q, { to: newEmail, ...message }, EMAIL_CODE_TTL_MS);
  });
  if (!taken) mailQueued();
}

/**
 * Applies the change when the code is right; answers both addresses for the notice. The user's
 * other sessions and outstanding reset links end with it: whoever held them proved nothing new.
 */
export async function verifyEmailChange(
  ctx: AppContext,
  auth: { user: UserRow; sessionId: string },
  newEmail: string,
  otp: string,
): Promise<{ oldEmail: string; newEmail: string }> {
  const user = auth.user;
  const pending = await findEmailChange(ctx.db, user.id);
  if (!pending || !sameEmail(pending.new_email, newEmail)) {
    throw new HttpError(400, NO_PENDING_CHANGE);
  }
  if (pending.expires_at.getTime() <= ctx.now()) throw new HttpError(400, CODE_EXPIRED);
  const taken = await takeEmailChangeAttempt(ctx.db, user.id, EMAIL_CODE_MAX_ATTEMPTS);
  if (!taken) throw new HttpError(400, CODE_EXHAUSTED);
  const expected = Buffer.from(taken.code_hash, 'hex');
  const actual = Buffer.from(codeHash(user.id, otp), 'hex');
  if (!crypto.timingSafeEqual(expected, actual)) {
    const left = EMAIL_CODE_MAX_ATTEMPTS - taken.attempts;
    if (left <= 0) throw new HttpError(400, CODE_EXHAUSTED);
    throw new HttpError(
      400,
      `The code is incorrect. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
    );
  }
  // Another account took the address after the code was sent (whoever has the code owns it).
  if (await takenByOther(ctx, user, pending.new_email)) {
    throw fieldError('new_email', EMAIL_NOT_AVAILABLE);
  }
  try {
    await ctx.db.tx(async (q) => {
      await setEmail(q, user.id, pending.new_email);
      await deleteEmailChange(q, user.id);
      await revokeUserSessions(q, user.id, auth.sessionId);
      await invalidateUserResets(q, user.id, ctx.now());
    });
  } catch (err) {
    // Another account took the address between the check and the update.
    if (isUniqueViolation(err)) throw fieldError('new_email', EMAIL_NOT_AVAILABLE);
    throw err;
  }
  return { oldEmail: user.email, newEmail: pending.new_email };
}

/** Tells the previous address about the change; a failure here must not undo the change. */
export async function notifyOldAddress(
  ctx: AppContext,
  oldEmail: string,
  newEmail: string,
  language: Language,
): Promise<void> {
  const message = templates.emailChanged[language]({ newEmail });
  await queueMail(ctx, ctx.db, { to: oldEmail, ...message }, MAIL_NOTICE_TTL_MS);
  mailQueued();
}
