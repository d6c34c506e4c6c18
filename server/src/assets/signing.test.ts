import { describe, expect, it } from 'vitest';
import { assetExpiry, signAssetPath, signAssetUrl, verifyAssetSignature } from './signing.ts';

const HOUR = 3600;
const ctxAt = (ms: number) => ({
  now: () => ms,
  secrets: { assetKey: Buffer.from('k'.repeat(32)), uploadKey: Buffer.alloc(32) },
});
const KEY = 'output/6b522a3f-b522-4e8b-be2f-c20b0ca1aa20/thumbnail.jpg';
const TEAM = '00000000-0000-4000-8000-000000000001';

describe('asset signing', () => {
  it('rounds the expiry up to the bucket, at least the lifetime ahead', () => {
    const start = 1_700_000_000 * 1000;
    const exp = assetExpiry(start);
    expect(exp % HOUR).toBe(0);
    expect(exp - start / 1000).toBeGreaterThanOrEqual(6 * HOUR);
    expect(exp - start / 1000).toBeLessThanOrEqual(7 * HOUR);
    // Same bucket, same path: browsers can cache it.
    expect(signAssetPath(ctxAt(start), KEY, TEAM)).toBe(
      signAssetPath(ctxAt(start + 1000), KEY, TEAM),
    );
  });

  it('verifies its own signature and refuses other keys, teams and expiries', () => {
    const ctx = ctxAt(1_700_000_000 * 1000);
    const p = signAssetPath(ctx, KEY, TEAM)!;
    expect(p.startsWith('6b522a3f-b522-4e8b-be2f-c20b0ca1aa20/thumbnail.jpg?exp=')).toBe(true);
    const q = new URLSearchParams(p.split('?')[1]);
    const exp = q.get('exp')!;
    const sig = q.get('sig')!;
    expect(verifyAssetSignature(ctx, KEY, exp, sig, TEAM)).toBe('ok');
    expect(verifyAssetSignature(ctx, KEY.replace('output', 'input'), exp, sig, TEAM)).toBe(
      'invalid',
    );
    expect(verifyAssetSignature(ctx, KEY, exp, sig, TEAM.replace('1', '2'))).toBe('invalid');
    expect(verifyAssetSignature(ctx, KEY, String(Number(exp) + 1), sig, TEAM)).toBe('invalid');
    expect(verifyAssetSignature(ctx, KEY, exp, undefined, TEAM)).toBe('invalid');
    expect(verifyAssetSignature(ctxAt(Number(exp) * 1000), KEY, exp, sig, TEAM)).toBe('expired');
  });

  it('signs nothing for missing or foreign keys and builds full URLs', () => {
    const ctx = ctxAt(0);
    expect(signAssetPath(ctx, null, TEAM)).toBeNull();
    expect(signAssetPath(ctx, 'secrets.json', TEAM)).toBeNull();
    expect(signAssetUrl(ctx, KEY, TEAM)).toMatch(
      /^\/assets\/data\/output\/6b522a3f-.*\?exp=\d+&sig=/,
    );
  });
});
