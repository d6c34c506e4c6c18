// Full-jitter exponential backoff (AWS architecture blog, "Exponential Backoff And Jitter"):
// a uniformly random wait up to min(cap, base * 2^attempt), so many clients coming back after an
// outage do not retry in lock-step. A server's Retry-After wins over our own guess.
import { RETRY_AFTER_MAX_MS, RETRY_BASE_MS, RETRY_MAX_MS } from '../config/upload-queue.ts';

/** attempt counts failures since the last progress, starting at 0 for the first failure. */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt));
  // Never below the base: an immediate retry of a failing call only adds load.
  return Math.max(RETRY_BASE_MS, Math.floor(random() * ceiling));
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterMs(
  value: string | null | undefined,
  now: number,
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(RETRY_AFTER_MAX_MS, Number(trimmed) * 1_000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, date - now));
}

/** The wait before the next attempt: Retry-After when the server gave one, else jittered backoff. */
export function nextDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  return retryAfterMs ?? backoffDelayMs(attempt, random);
}
