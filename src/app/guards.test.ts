import { describe, expect, it } from 'vitest';
import { withCarriedQuery } from '../lib/navigation';
import { decideRoute, type GuardInput } from './guards';

const base: GuardInput = {
  access: 'signedIn',
  pathname: '/video',
  search: '',
  status: 'signedIn',
  mustChangePassword: false,
};

describe('route guards (section 2)', () => {
  it('public pages render for everyone, even while restoring', () => {
    for (const status of ['restoring', 'signedIn', 'signedOut'] as const) {
      expect(decideRoute({ ...base, access: 'public', pathname: '/', status })).toEqual({
        kind: 'render',
      });
    }
  });

  it('waits for the session restore before deciding', () => {
    expect(decideRoute({ ...base, status: 'restoring' })).toEqual({ kind: 'wait' });
  });

  it('sends a signed-out visitor to Login after 100 ms and remembers the target', () => {
    expect(decideRoute({ ...base, status: 'signedOut', search: '?page=2' })).toEqual({
      kind: 'redirect',
      to: '/login',
      delayMs: 100,
      returnTo: '/video?page=2',
    });
  });

  it('sends a signed-in user away from the sign-in pages to the video list', () => {
    for (const pathname of ['/login', '/forgot-password', '/reset-password']) {
      expect(decideRoute({ ...base, access: 'signedOutOnly', pathname })).toMatchObject({
        kind: 'redirect',
        to: '/video',
      });
    }
    expect(
      decideRoute({ ...base, access: 'signedOutOnly', pathname: '/login', status: 'signedOut' }),
    ).toEqual({
      kind: 'render',
    });
  });

  it('keeps a user who must change the initial password on that screen', () => {
    const forced = { ...base, mustChangePassword: true };
    expect(decideRoute(forced)).toMatchObject({
      kind: 'redirect',
      to: '/profile?type=change_password',
    });
    expect(decideRoute({ ...forced, pathname: '/profile', search: '?type=account' })).toMatchObject(
      {
        kind: 'redirect',
      },
    );
    expect(
      decideRoute({ ...forced, pathname: '/profile', search: '?type=change_password' }),
    ).toEqual({
      kind: 'render',
    });
    expect(decideRoute({ ...forced, access: 'signedOutOnly', pathname: '/login' })).toMatchObject({
      to: '/profile?type=change_password',
    });
  });

  it('carries tsiletihw through redirects', () => {
    expect(decideRoute({ ...base, status: 'signedOut', search: '?tsiletihw=1' })).toMatchObject({
      to: '/login?tsiletihw=1',
      returnTo: '/video?tsiletihw=1',
    });
    expect(
      decideRoute({
        ...base,
        access: 'signedOutOnly',
        pathname: '/login',
        search: '?tsiletihw=abc',
      }),
    ).toMatchObject({ to: '/video?tsiletihw=abc' });
  });
});

describe('withCarriedQuery', () => {
  it('adds tsiletihw only when the target has no query of its own', () => {
    expect(withCarriedQuery('/video', '?tsiletihw=x&other=1')).toBe('/video?tsiletihw=x');
    expect(withCarriedQuery('/profile?type=account', '?tsiletihw=x')).toBe('/profile?type=account');
    expect(withCarriedQuery('/video', '?other=1')).toBe('/video');
    expect(withCarriedQuery('/video#top', '?tsiletihw=a b')).toBe('/video?tsiletihw=a%20b#top');
  });
});
