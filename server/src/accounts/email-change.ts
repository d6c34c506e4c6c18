// Changing the sign-in e-mail: a 6-digit code goes to the new address; entering it there proves
// the address. The code's hash is stored, with its expiry and the number of tries used.
import crypto from 'node:crypto';
import type { Language } from '../auth/validation.ts';
import type { AppContext } from '../context.ts';
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
import { countEvents, recordEvent } from '../repositories/throttle.ts';
import { findUserByEmail, setEmail, setLanguage, type UserRow } from '../repositories/users.ts';
import { SCOPES } from './throttle.ts';

const CODE_SCOPE = SCOPES.emailCode;
const HOUR_MS = 60 * 60 * 1000;

/** Deliberately does not say whether another account has the address. */
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

async function assertAvailable(ctx: AppContext, user: UserRow, newEmail: string): Promise<void> {
  if (sameEmail(newEmail, user.email)) {
    throw fieldError('new_email', 'new_email is the same as your current e-mail address');
  }
  const other = await findUserByEmail(ctx.db, newEmail);
  if (other && other.id !== user.id) throw fieldError('new_email', EMAIL_NOT_AVAILABLE);
}

/** Seconds the user must wait before another code may be sent, or 0. */
export async function codeWaitSeconds(ctx: AppContext, userId: string): Promise<number> {
  const now = ctx.now();
  const lastHour = await countEvents(ctx.db, {
    scope: CODE_SCOPE,
    key: userId,
    since: now - HOUR_MS,
  });
  if (!lastHour.last) return 0;
  const last = lastHour.last.getTime();
  let until = last + EMAIL_CODE_RESEND_MS;
  if (lastHour.count >= EMAIL_CODE_PER_HOUR && lastHour.first) {
    // The oldest send of the hour must leave the window first.
    until = Math.max(until, lastHour.first.getTime() + HOUR_MS);
  }
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

/** Checks the address and sends a fresh code to it, replacing any earlier one. */
export async function requestEmailChange(
  ctx: AppContext,
  user: UserRow,
  newEmail: string,
  language: Language,
): Promise<void> {
  await assertAvailable(ctx, user, newEmail);
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
    await recordEvent(q, { scope: CODE_SCOPE, key: user.id, at: now });
    await setLanguage(q, user.id, language);
    await queueMail(ctx, q, { to: newEmail, ...message }, EMAIL_CODE_TTL_MS);
  });
  mailQueued();
}

/** Applies the change when the code is right; answers both addresses for the notice. */
export async function verifyEmailChange(
  ctx: AppContext,
  user: UserRow,
  newEmail: string,
  otp: string,
): Promise<{ oldEmail: string; newEmail: string }> {
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
  await assertAvailable(ctx, user, pending.new_email);
  try {
    await ctx.db.tx(async (q) => {
      await setEmail(q, user.id, pending.new_email);
      await deleteEmailChange(q, user.id);
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
