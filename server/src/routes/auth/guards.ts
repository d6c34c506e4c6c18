// Shared checks of the account routes that answer with HTTP details (429 with Retry-After).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordPasswordCheck, reservePasswordCheck } from '../../accounts/throttle.ts';
import { HashBusyError, hashSlots, type Hashing } from '../../auth/hash-slots.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { UserRow } from '../../repositories/users.ts';

export function tooManyAttempts(reply: FastifyReply, seconds: number): HttpError {
  reply.header('Retry-After', String(seconds));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

/**
 * Runs a handler that hashes passwords in the server's capped hashing slots (hash-slots.ts);
 * when they are full for this address or for everyone, answers 429 at once.
 */
export async function withHashSlot<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  fn: (hashing: Hashing) => Promise<T>,
): Promise<T> {
  try {
    return await hashSlots.admit(request.ip, fn);
  } catch (err) {
    if (!(err instanceof HashBusyError)) throw err;
    reply.header('Retry-After', '1');
    throw new HttpError(429, 'Too many attempts at once. Please try again in a moment.');
  }
}

/** The body as a plain object (a missing body reads as empty; the schema rejects non-objects). */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/**
 * The schema of a JSON object body whose named fields, when present, are text: a number or a
 * list there is a 422 naming the field (bodies are checked without coercion: plugins/validation).
 * Presence and content are checked in the handlers, with the texts of product-spec section 5.
 */
export function textBody(fields: string[], nullable: string[] = []) {
  const properties: Record<string, { type: string | string[] }> = {};
  for (const f of fields) properties[f] = { type: 'string' };
  for (const f of nullable) properties[f] = { type: ['string', 'null'] };
  return { body: { type: 'object', properties } } as const;
}

/**
 * The signed-in user's current password, with its own throttle (counted before the check). A
 * wrong one is a 400, never a 401/403: those make the client sign the user out.
 */
export async function checkCurrentPassword(
  ctx: AppContext,
  reply: FastifyReply,
  hashing: Hashing,
  user: UserRow,
  password: string,
): Promise<void> {
  const wait = await reservePasswordCheck(ctx, user.id);
  if (wait > 0) throw tooManyAttempts(reply, wait);
  const ok = await hashing(() => verifyPassword(password, user.password_hash));
  await recordPasswordCheck(ctx, user.id, ok);
  if (!ok) throw new HttpError(400, 'The current password is incorrect.');
}
