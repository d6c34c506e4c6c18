import { cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../lang/en.json';
import { PUBLIC_PATHS } from '../config/routes';
import { withCarriedQuery } from '../lib/navigation';
import { saveStoredUser } from '../lib/session-storage';
import { SESSION_USER, stubFetch } from '../testing/fetch-stub';
import { renderApp } from '../testing/render-app';
import { stubSignedIn, useSignedOut } from '../testing/signed-in';
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

describe('the 404 page (section 2: every page but Home and PrivacyPolicy needs a sign-in)', () => {
  useSignedOut();
  // The first render loads lazy route chunks, which vitest transforms on demand.
  const FIRST = { timeout: 15_000 };

  it('only Home and PrivacyPolicy are public', () => {
    expect([...PUBLIC_PATHS].sort()).toEqual(['/', '/privacy-policy']);
  });

  it('sends a signed-out visitor to Login, and shows itself to a signed-in user', async () => {
    stubFetch({});
    renderApp('/404');
    await waitFor(() => expect(window.location.pathname).toBe('/login'), FIRST);
    expect(screen.queryByText(en['notFound.title'])).toBeNull();
    cleanup();

    await saveStoredUser(SESSION_USER);
    stubSignedIn();
    renderApp('/404');
    expect(await screen.findByText(en['notFound.title'], {}, FIRST)).toBeTruthy();
    expect(window.location.pathname).toBe('/404');
  }, 30_000);
});
