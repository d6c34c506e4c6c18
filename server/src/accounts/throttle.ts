// Login throttling, kept in the database so that every server process sees the same counts.
// Per account: after LOGIN_ACCOUNT_FAILURES failures in the window, each further try waits a
// doubling delay (capped at the window), so a lock always ends. A client address that signed in
// to the account recently only counts its own failures, so an attacker elsewhere cannot lock the
// real user out. Per address: a higher limit across all accounts.
import type { AppContext } from '../context.ts';
import {
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
  pruneEvents,
  recordEvent,
  type EventCount,
} from '../repositories/throttle.ts';

/** The kinds of counted events, one place for their names. */
export const SCOPES = {
  loginFailed: 'login',
  signedIn: 'login-ok',
  passwordCheck: 'password-check',
  resetMail: 'reset-mail',
  emailCode: 'email-code',
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

export async function loginWaitSeconds(
  ctx: AppContext,
  email: string,
  clientIp: string,
): Promise<number> {
  const now = ctx.now();
  const since = now - LOGIN_WINDOW_MS;
  const key = accountKey(email);
  const byIp = await countEvents(ctx.db, { scope: FAILED, clientIp, since });
  const known = await countEvents(ctx.db, {
    scope: SIGNED_IN,
    key,
    clientIp,
    since: now - LOGIN_KNOWN_CLIENT_MS,
  });
  const byAccount = await countEvents(ctx.db, {
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

export async function recordLoginFailure(
  ctx: AppContext,
  email: string,
  clientIp: string,
): Promise<void> {
  await recordEvent(ctx.db, { scope: FAILED, key: accountKey(email), clientIp, at: ctx.now() });
}

/** A successful login resets the account's failures and marks the address as known. */
export async function recordLoginSuccess(
  ctx: AppContext,
  email: string,
  clientIp: string,
): Promise<void> {
  const key = accountKey(email);
  const now = ctx.now();
  await clearEvents(ctx.db, FAILED, key);
  await clearEvents(ctx.db, SIGNED_IN, key, clientIp);
  await recordEvent(ctx.db, { scope: SIGNED_IN, key, clientIp, at: now });
}

/** Forgets events no window looks at any more (called now and then, on successful logins). */
export async function pruneThrottle(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  await pruneEvents(ctx.db, FAILED, now - LOGIN_WINDOW_MS);
  await pruneEvents(ctx.db, PASSWORD_CHECK, now - LOGIN_WINDOW_MS);
  await pruneEvents(ctx.db, SIGNED_IN, now - LOGIN_KNOWN_CLIENT_MS);
  // The e-mail scopes look back at most an hour.
  await pruneEvents(ctx.db, SCOPES.resetMail, now - 60 * 60 * 1000);
  await pruneEvents(ctx.db, SCOPES.emailCode, now - 60 * 60 * 1000);
}

/** Wrong current passwords of a signed-in user (change password, change e-mail). */
export async function passwordCheckWaitSeconds(ctx: AppContext, userId: string): Promise<number> {
  const now = ctx.now();
  const c = await countEvents(ctx.db, {
    scope: PASSWORD_CHECK,
    key: userId,
    since: now - LOGIN_WINDOW_MS,
  });
  return waitSeconds(c, PASSWORD_CHECK_FAILURES, now);
}

export async function recordPasswordCheck(
  ctx: AppContext,
  userId: string,
  ok: boolean,
): Promise<void> {
  if (ok) await clearEvents(ctx.db, PASSWORD_CHECK, userId);
  else await recordEvent(ctx.db, { scope: PASSWORD_CHECK, key: userId, at: ctx.now() });
}
