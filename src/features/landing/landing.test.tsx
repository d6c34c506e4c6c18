import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../lang/en.json';
import ja from '../../../lang/ja.json';
import { CONTACT_URLS, PROVIDER_HOME_URL } from '../../config/site';
import { LOGIN_ANSWER, stubFetch } from '../../testing/fetch-stub';
import { renderAt } from '../../testing/render-at';

const FIRST = { timeout: 15_000 };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The contact link's target, split into page and prefilled inquiry text. */
function contactTarget(name: string) {
  const link = screen.getByRole('link', { name: new RegExp(name) });
  const url = new URL(link.getAttribute('href') ?? '');
  return {
    page: `${url.origin}${url.pathname}`,
    inquiry: url.searchParams.get('inquiry'),
    target: link.getAttribute('target'),
    rel: link.getAttribute('rel') ?? '',
  };
}

describe('Landing page (section 2)', { timeout: 30_000 }, () => {
  it('shows every section, the provider link and Log in to a signed-out visitor', async () => {
    stubFetch({});
    const { user } = await renderAt('/');
    await screen.findByRole('heading', { level: 1, name: en['landing.intro.title'] }, FIRST);
    for (const id of [
      'landing.trailer.title',
      'landing.report.title',
      'landing.search.title',
      'landing.benefits.title',
      'landing.cloud.title',
      'landing.demo.title',
    ] as const) {
      expect(screen.getByRole('heading', { level: 2, name: en[id] })).toBeTruthy();
    }
    expect(screen.getByText(en['landing.cloud.item3'])).toBeTruthy();
    expect(screen.getByRole('link', { name: en['landing.nav.home'] }).getAttribute('href')).toBe(
      PROVIDER_HOME_URL,
    );
    expect(screen.getByLabelText('Language')).toBeTruthy();
    expect(screen.queryByRole('link', { name: en['landing.goToApp'] })).toBeNull();
    await user.click(screen.getByRole('link', { name: en['landing.login'] }));
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('opens the English contact page in a new tab with the inquiry prefilled', async () => {
    stubFetch({});
    await renderAt('/');
    await screen.findByRole('heading', { level: 1 }, FIRST);
    expect(contactTarget(en['landing.contact'])).toEqual({
      page: CONTACT_URLS.en,
      inquiry: en['landing.contactInquiry'],
      target: '_blank',
      rel: 'noopener noreferrer',
    });
  });

  it('in Japanese: Japanese texts and the Japanese contact page', async () => {
    stubFetch({});
    await renderAt('/', { locale: 'ja' });
    await screen.findByRole('heading', { level: 1, name: ja['landing.intro.title'] }, FIRST);
    expect(screen.getByRole('link', { name: ja['landing.login'] })).toBeTruthy();
    expect(contactTarget(ja['landing.contact'])).toMatchObject({
      page: CONTACT_URLS.ja,
      inquiry: ja['landing.contactInquiry'],
      target: '_blank',
    });
  });

  it('offers Go to app, to the video list, to a signed-in user', async () => {
    stubFetch({
      'GET /api/refresh': () => ({ status: 200, body: LOGIN_ANSWER }),
      'GET /api/profile': () => ({ status: 200, body: LOGIN_ANSWER.user }),
    });
    await renderAt('/?tsiletihw=7', { signedIn: true });
    const goToApp = await screen.findByRole('link', { name: en['landing.goToApp'] }, FIRST);
    expect(goToApp.getAttribute('href')).toBe('/video?tsiletihw=7');
    expect(screen.queryByRole('link', { name: en['landing.login'] })).toBeNull();
  });
});
