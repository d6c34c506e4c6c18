// Issue 8: offline, every action that needs the network is disabled and says why (tooltip and
// accessible description); back online it is available again. The video list has its own test.
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setOnline } from '../../testing/online';
import { renderApp } from '../../testing/render-app';
import { stubSignedInNoVideos, useStoredSession } from '../../testing/signed-in';
import { completedVideoFixture, sceneFixture } from '../../testing/video-fixtures';

// The first render loads lazy route chunks, which vitest transforms on demand.
const FIRST = { timeout: 15_000 };
const REASON = 'This needs a network connection. You are offline.';
const ID = '0b9f6a52-0000-4000-8000-000000000001';
const DETAIL = completedVideoFixture(
  ID,
  [0, 1].map((i) => sceneFixture(i, `Scene ${i}`)),
);

useStoredSession();
afterEach(() => setOnline(true));

function signedIn() {
  return stubSignedInNoVideos({
    [`GET /api/videos/${ID}`]: () => ({ status: 200, body: DETAIL }),
    'POST /api/users/change-email-request': () => ({ status: 200, body: { detail: 'sent' } }),
  });
}

const button = (name: string, within_: HTMLElement = document.body) =>
  within(within_).getByRole<HTMLButtonElement>('button', { name });

const description = (element: HTMLElement) =>
  document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;

/** Offline each named button is disabled with the reason; online each is enabled again. */
function expectNeedsNetwork(names: string[], scope?: HTMLElement): void {
  setOnline(false);
  for (const name of names) {
    const offline = button(name, scope);
    expect(offline.disabled, name).toBe(true);
    expect(offline.title, name).toBe(REASON);
    expect(description(offline), name).toBe(REASON);
  }
  setOnline(true);
  for (const name of names) {
    const online = button(name, scope);
    expect(online.disabled, name).toBe(false);
    expect(online.title, name).toBe('');
    expect(online.getAttribute('aria-describedby'), name).toBeNull();
  }
}

describe('Offline, actions that need the network', { timeout: 30_000 }, () => {
  it('on the detail page: similar video and scenes search, make trailer and report', async () => {
    signedIn();
    renderApp(`/video-detail/${ID}?sceneIndex=1`);
    await screen.findByTestId('outputs-area', {}, FIRST);
    expectNeedsNetwork([
      'Search Similar Video',
      'Search Similar Scenes',
      'Make trailer',
      'Make report',
    ]);
    // Reading needs no network: the way to advanced search stays open.
    setOnline(false);
    expect(button('Advanced search').disabled).toBe(false);
  });

  it('on advanced search: the search button', async () => {
    signedIn();
    renderApp(`/advanced-search/${ID}?sceneIndex=1&video=false`);
    // The button waits for the scene's description, which comes with the video's detail.
    await screen.findByDisplayValue('Scene 1', {}, FIRST);
    expectNeedsNetwork(['Search similar scenes']);
  });

  it('on the profile: save, the e-mail change steps, change password, delete account', async () => {
    signedIn();
    const { user } = renderApp('/profile?type=account');
    await user.type(await screen.findByLabelText('Full name', {}, FIRST), '!');
    expectNeedsNetwork(['Save']);

    await user.click(screen.getByRole('link', { name: 'Change password' }));
    await user.type(await screen.findByLabelText('Current password', {}, FIRST), 'Current2024');
    await user.type(screen.getByLabelText('New password'), 'Fresh2024pass');
    await user.type(screen.getByLabelText('Confirm password'), 'Fresh2024pass');
    expectNeedsNetwork(['Save']);

    await user.click(screen.getByRole('link', { name: 'Change email' }));
    await user.type(await screen.findByLabelText('New email', {}, FIRST), 'moved@example.com');
    await user.type(screen.getByLabelText('Current password'), 'Secret2024ok');
    expectNeedsNetwork(['Send code']);
    await user.click(button('Send code'));
    await user.click(await screen.findByLabelText('Digit 1 of 6', {}, FIRST));
    await user.paste('123456');
    expectNeedsNetwork(['Verify']);
    // The resend waits out the server's 30 s spacing first.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    await screen.findByRole('button', { name: 'Resend code' });
    vi.useRealTimers();
    expectNeedsNetwork(['Resend code']);

    await user.click(screen.getByRole('link', { name: 'Delete account' }));
    await screen.findByText('Danger zone', {}, FIRST);
    expectNeedsNetwork(['Delete account']);
    await user.click(button('Delete account'));
    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    await user.type(within(dialog).getByLabelText('Your email address'), 'user@example.com');
    await user.type(within(dialog).getByLabelText('Current password'), 'Secret2024ok');
    expectNeedsNetwork(['Delete'], dialog);
    // Cancel needs no network. (Closing also stops the dialog's focus trap before cleanup.)
    setOnline(false);
    await user.click(button('Cancel', dialog));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});
