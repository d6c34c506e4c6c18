import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_MAX_MS, RETRY_BASE_MS, RETRY_MAX_MS } from '../config/upload-queue.ts';
import { backoffDelayMs, nextDelayMs, parseRetryAfterMs } from './backoff.ts';

describe('backoff', () => {
  it('draws uniformly below an exponentially growing ceiling, never under 1 s', () => {
    expect(backoffDelayMs(0, () => 0)).toBe(RETRY_BASE_MS);
    expect(backoffDelayMs(3, () => 0.5)).toBe(4_000);
    expect(backoffDelayMs(3, () => 0.999)).toBe(7_992);
    expect(backoffDelayMs(1, () => 0.1)).toBe(RETRY_BASE_MS);
  });

  it('caps the ceiling at 5 minutes however many attempts failed', () => {
    expect(backoffDelayMs(9, () => 0.999)).toBe(Math.floor(0.999 * RETRY_MAX_MS));
    expect(backoffDelayMs(60, () => 0.999)).toBeLessThanOrEqual(RETRY_MAX_MS);
  });

  it('spreads clients apart (jitter)', () => {
    const draws = new Set(Array.from({ length: 50 }, () => backoffDelayMs(8)));
    expect(draws.size).toBeGreaterThan(40);
  });

  it('reads Retry-After as seconds or a date, bounded', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfterMs('7', now)).toBe(7_000);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('999999', now)).toBe(RETRY_AFTER_MAX_MS);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });

  it('prefers the server’s Retry-After over its own guess', () => {
    expect(nextDelayMs(5, 2_000, () => 0.9)).toBe(2_000);
    expect(nextDelayMs(0, undefined, () => 0.9)).toBe(RETRY_BASE_MS);
  });
});
