import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocaleProvider } from '../../lib/locale-context';
import { InstallButton } from './InstallButton';
import { watchInstallPrompt } from './pwa-state';

// The install button appears where the browser offers installation (beforeinstallprompt) and
// goes once the app is installed, or when it already runs installed (standalone).
let standalone = false;

beforeAll(() => {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      media: query,
      matches: standalone && query.includes('standalone'),
    }),
  });
  watchInstallPrompt(); // as the entry does, before any screen
});

afterEach(() => {
  act(() => {
    window.dispatchEvent(new Event('appinstalled')); // forgets any offer between tests
  });
  standalone = false;
  cleanup();
});

/** Chromium's offer: an event with prompt() and the user's choice. */
function offerInstall(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const prompt = vi.fn(async () => undefined);
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt,
    userChoice: Promise.resolve({ outcome }),
  });
  act(() => {
    window.dispatchEvent(event);
  });
  return { event, prompt };
}

function renderButton() {
  render(
    <LocaleProvider>
      <InstallButton />
    </LocaleProvider>,
  );
}

const installButton = () => screen.queryByRole('button', { name: 'Install app' });

describe('install button', { timeout: 30_000 }, () => {
  it('is hidden until the browser offers installation, then shown', () => {
    renderButton();
    expect(installButton()).toBeNull();
    const { event } = offerInstall();
    expect(installButton()).not.toBeNull();
    // The browser's own mini-infobar is kept back for our button.
    expect(event.defaultPrevented).toBe(true);
  });

  it("opens the browser's install prompt on click, once", async () => {
    renderButton();
    const { prompt } = offerInstall('dismissed');
    await userEvent.click(installButton()!);
    expect(prompt).toHaveBeenCalledTimes(1);
    // An offer is used once; the browser may offer again later.
    await waitFor(() => expect(installButton()).toBeNull());
    offerInstall();
    expect(installButton()).not.toBeNull();
  });

  it('goes once the app is installed', () => {
    renderButton();
    offerInstall();
    expect(installButton()).not.toBeNull();
    act(() => {
      window.dispatchEvent(new Event('appinstalled'));
    });
    expect(installButton()).toBeNull();
  });

  it('is not shown in the installed app (standalone display mode)', () => {
    standalone = true;
    renderButton();
    offerInstall();
    expect(installButton()).toBeNull();
  });
});
