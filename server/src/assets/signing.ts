// Signed, expiring asset paths. <img> and <video> cannot send a bearer token, so the API hands
// out paths that carry their own proof: an HMAC over the storage key, the expiry and the owning
// team. Expiries are rounded up to a time bucket so the same file keeps the same URL for a
// while and browsers can cache it.
import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import { ASSET_URL_BUCKET_S, ASSET_URL_TTL_S } from '../limits.ts';

export type AssetRoot = 'input' | 'output';
export const ASSET_ROOTS: readonly AssetRoot[] = ['input', 'output'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The expiry (unix seconds) of paths signed now: at least the lifetime, bucket-aligned. */
export function assetExpiry(nowMs: number): number {
  const nowS = Math.floor(nowMs / 1000);
  return (Math.floor(nowS / ASSET_URL_BUCKET_S) + 1) * ASSET_URL_BUCKET_S + ASSET_URL_TTL_S;
}

function signature(key: Buffer, storageKey: string, exp: number, teamId: string): string {
  return crypto
    .createHmac('sha256', key)
    .update(`${storageKey}|${exp}|${teamId}`)
    .digest('base64url');
}

/** Splits "output/<videoId>/x.jpg" into its root and the rest; undefined for other keys. */
export function splitKey(storageKey: string): { root: AssetRoot; rest: string } | undefined {
  const slash = storageKey.indexOf('/');
  const root = storageKey.slice(0, slash);
  if (slash <= 0 || !(ASSET_ROOTS as readonly string[]).includes(root)) return undefined;
  return { root: root as AssetRoot, rest: storageKey.slice(slash + 1) };
}

/**
 * The path the client appends to /assets/data/<root>/, e.g.
 * "<videoId>/thumbnail.jpg?exp=1700000000&sig=...". Null for a missing key.
 */
export function signAssetPath(
  ctx: Pick<AppContext, 'secrets' | 'now'>,
  storageKey: string | null | undefined,
  teamId: string,
): string | null {
  if (!storageKey) return null;
  const parts = splitKey(storageKey);
  if (!parts) return null;
  const exp = assetExpiry(ctx.now());
  const sig = signature(ctx.secrets.assetKey, storageKey, exp, teamId);
  const encoded = parts.rest.split('/').map(encodeURIComponent).join('/');
  return `${encoded}?exp=${exp}&sig=${sig}`;
}

/** The full URL path of a signed asset, for server-made pages such as the report. */
export function signAssetUrl(
  ctx: Pick<AppContext, 'secrets' | 'now'>,
  storageKey: string | null | undefined,
  teamId: string,
): string | null {
  const signed = signAssetPath(ctx, storageKey, teamId);
  const parts = storageKey ? splitKey(storageKey) : undefined;
  return signed && parts ? `/assets/data/${parts.root}/${signed}` : null;
}

export type Verdict = 'ok' | 'expired' | 'invalid';

export function verifyAssetSignature(
  ctx: Pick<AppContext, 'secrets' | 'now'>,
  storageKey: string,
  exp: string | undefined,
  sig: string | undefined,
  teamId: string,
): Verdict {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'invalid';
  const expected = Buffer.from(signature(ctx.secrets.assetKey, storageKey, Number(exp), teamId));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return 'invalid';
  }
  return Number(exp) * 1000 <= ctx.now() ? 'expired' : 'ok';
}
