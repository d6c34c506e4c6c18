// Login throttling, kept in the database so that every server process sees the same counts.
// Per account: after LOGIN_ACCOUNT_FAILURES failures in the window, each further try waits a
// doubling delay (capped at the window), so a lock always ends. A client address that signed in
// to the account recently only counts its own failures, so an attacker elsewhere cannot lock the
// real user out. Per address: a higher limit across all accounts. An attempt is recorded before
// its password is checked (reserveAttempt), so parallel guesses count like sequential ones.
// "Address" is the client's network key throughout (an IPv6 /64, auth/network-key.ts).
import crypto from 'node:crypto';
import { networkKey } from '../auth/network-key.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import {
  FORGOT_PER_ADDRESS,
  FORGOT_PER_NETWORK,
  FORGOT_WINDOW_MS,
  LOGIN_ACCOUNT_FAILURES,
  LOGIN_BASE_DELAY_MS,
  LOGIN_IP_FAILURES,
  LOGIN_KNOWN_CLIENT_MS,
  LOGIN_WINDOW_MS,
  PASSWORD_CHECK_FAILURES,
} from '../limits.ts';
import {
  clearEvents,
  countEvents,
  lockThrottleKeys,
  pruneEvents,
  recordEvent,
  type EventCount,
  type ThrottleEvent,
} from '../repositories/throttle.ts';

/** The kinds of counted events, one place for their names. */
export const SCOPES = {
  loginFailed: 'login',
  signedIn: 'login-ok',
  passwordCheck: 'password-check',
  resetMail: 'reset-mail',
  emailCode: 'email-code',
  forgotPassword: 'forgot',
} as const;
const FAILED = SCOPES.loginFailed;
const SIGNED_IN = SCOPES.signedIn;
const PASSWORD_CHECK = SCOPES.passwordCheck;

/** Seconds until the next try is allowed, or 0. */
function waitSeconds(c: EventCount, limit: number, now: number): number {
  if (c.count < limit || !c.last) return 0;
  const delay = Math.min(LOGIN_BASE_DELAY_MS * 2 ** (c.count - limit), LOGIN_WINDOW_MS);
  const until = c.last.getTime() + delay;
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

const accountKey = (email: string): string => email.trim().toLowerCase();

/**
 * Checks a throttle and, when it allows the attempt, records it as one step under a lock on the
 * given keys: the attempt counts before its password is checked, so parallel requests cannot get
 * more tries through one window than sequential ones. Answers the seconds to wait (nothing was
 * recorded), or 0 when the attempt is recorded.
 */
export async function reserveAttempt(
  ctx: AppContext,
  locks: readonly string[],
  wait: (q: Queryable) => Promise<number>,
  event: Omit<ThrottleEvent, 'at'>,
): Promise<number> {
  return ctx.db.tx(async (q) => {
    await lockThrottleKeys(q, locks);
    const seconds = await wait(q);
    if (seconds === 0) await recordEvent(q, { ...event, at: ctx.now() });
    return seconds;
  });
}

async function loginWaitSeconds(
  q: Queryable,
  now: number,
  key: string,
  clientIp: string,
): Promise<number> {
  const since = now - LOGIN_WINDOW_MS;
  const byIp = await countEvents(q, { scope: FAILED, clientIp, since });
  const known = await countEvents(q, {
    scope: SIGNED_IN,
    key,
    clientIp,
    since: now - LOGIN_KNOWN_CLIENT_MS,
  });
  const byAccount = await countEvents(q, {
    scope: FAILED,
    key,
    ...(known.count > 0 ? { clientIp } : {}),
    since,
  });
  return Math.max(
    waitSeconds(byIp, LOGIN_IP_FAILURES, now),
    waitSeconds(byAccount, LOGIN_ACCOUNT_FAILURES, now),
  );
}

/**
 * A login attempt, counted as a failure until the password proves right (recordLoginSuccess).
 * Answers the seconds to wait when the throttle refuses it (then it is not counted), else 0.
 */
export function reserveLoginAttempt(ctx: AppContext, email: string, ip: string): Promise<number> {
  const key = accountKey(email);
  const clientIp = networkKey(ip);
  return reserveAttempt(
    ctx,
    [`${FAILED}:${key}`, `${FAILED}@${clientIp}`],
    (q) => loginWaitSeconds(q, ctx.now(), key, clientIp),
    { scope: FAILED, key, clientIp },
  );
}

/**
 * A successful login forgets the failures from this address (its own attempt among them) and
 * marks the address as known. Failures from elsewhere stay: a user signing in must not hand an
 * attacker a fresh set of guesses.
 */
export async function recordLoginSuccess(
  ctx: AppContext,
  email: string,
  ip: string,
): Promise<void> {
  const key = accountKey(email);
  const clientIp = networkKey(ip);
  const now = ctx.now();
  await clearEvents(ctx.db, FAILED, key, clientIp);
  await clearEvents(ctx.db, SIGNED_IN, key, clientIp);
  await recordEvent(ctx.db, { scope: SIGNED_IN, key, clientIp, at: now });
}

/** Forgets events no window looks at any more (on successful logins, and by the scheduler). */
export async function pruneThrottle(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  await pruneEvents(ctx.db, FAILED, now - LOGIN_WINDOW_MS);
  await pruneEvents(ctx.db, PASSWORD_CHECK, now - LOGIN_WINDOW_MS);
  await pruneEvents(ctx.db, SIGNED_IN, now - LOGIN_KNOWN_CLIENT_MS);
  // The e-mail scopes look back at most an hour.
  await pruneEvents(ctx.db, SCOPES.resetMail, now - 60 * 60 * 1000);
  await pruneEvents(ctx.db, SCOPES.emailCode, now - 60 * 60 * 1000);
  await pruneEvents(ctx.db, SCOPES.forgotPassword, now - FORGOT_WINDOW_MS);
}

/**
 * Counts an anonymous forgot-password request per e-mail address and per network and, when both
 * are under their limits, runs `accepted` in the same transaction (it queues the work). Answers
 * whether it ran. The address is kept as a hash: the throttle needs to tell addresses apart, not
 * to know them.
 */
export function reserveForgotPassword(
  ctx: AppContext,
  email: string,
  ip: string,
  accepted: (q: Queryable) => Promise<void>,
): Promise<boolean> {
  const scope = SCOPES.forgotPassword;
  const key = crypto.createHash('sha256').update(accountKey(email)).digest('hex');
  const clientIp = networkKey(ip);
  return ctx.db.tx(async (q) => {
    await lockThrottleKeys(q, [`${scope}:${key}`, `${scope}@${clientIp}`]);
    const now = ctx.now();
    const since = now - FORGOT_WINDOW_MS;
    const byAddress = await countEvents(q, { scope, key, since });
    const byNetwork = await countEvents(q, { scope, clientIp, since });
    if (byAddress.count >= FORGOT_PER_ADDRESS || byNetwork.count >= FORGOT_PER_NETWORK) {
      return false;
    }
    await recordEvent(q, { scope, key, clientIp, at: now });
    await accepted(q);
    return true;
  });
}

/**
 * A check of a signed-in user's current password (change password, change e-mail, delete
 * account), counted as wrong until it proves right (recordPasswordCheck). Answers the seconds to
 * wait when refused, else 0.
 */
export function reservePasswordCheck(ctx: AppContext, userId: string): Promise<number> {
  return reserveAttempt(
    ctx,
    [`${PASSWORD_CHECK}:${userId}`],
    async (q) => {
      const now = ctx.now();
      const c = await countEvents(q, {
        scope: PASSWORD_CHECK,
        key: userId,
        since: now - LOGIN_WINDOW_MS,
      });
      return waitSeconds(c, PASSWORD_CHECK_FAILURES, now);
    },
    { scope: PASSWORD_CHECK, key: userId },
  );
}

/** A right password forgets the user's wrong ones; a wrong one is already counted. */
export async function recordPasswordCheck(
  ctx: AppContext,
  userId: string,
  ok: boolean,
): Promise<void> {
  if (ok) await clearEvents(ctx.db, PASSWORD_CHECK, userId);
}
