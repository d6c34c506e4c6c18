import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeCacheStorage } from '../testing/fake-cache-storage';
import { renderApp } from '../testing/render-app';
import { stubSignedInNoVideos, useStoredSession } from '../testing/signed-in';

// No service worker controls these pages (jsdom has none, as after a hard reload): the page itself
// must delete the user's cached answers and images (issue 8, cache security).
useStoredSession();

const FIRST = { timeout: 15_000 };
const PRECACHE = 'workbox-precache-v2-http://localhost/';
let storage: FakeCacheStorage;

beforeEach(async () => {
  storage = new FakeCacheStorage();
  await storage.cache(PRECACHE).put('/index.html', new Response('<html>'));
  for (const name of ['api-v1@7', 'images-v1@7', 'upload-languages-v2@7', 'images-v1@12']) {
    await storage.cache(name).put('/api/videos', new Response('{}'));
  }
});

function signedIn() {
  vi.stubGlobal('caches', storage);
  return stubSignedInNoVideos({
    'DELETE /api/users/7': () => ({ status: 200, body: { status: 'deleted' } }),
  });
}

describe('user caches on a page no service worker controls', { timeout: 30_000 }, () => {
  it('signing in deletes the caches of anyone else; logout deletes the user’s own', async () => {
    signedIn();
    const { user } = renderApp('/video');
    await screen.findByText('Currently, there are no videos.', {}, FIRST);
    await waitFor(() => expect(storage.names()).not.toContain('images-v1@12'));
    expect(storage.names()).toContain('api-v1@7');

    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
    await waitFor(() => expect(window.location.pathname).toBe('/login'), FIRST);
    await waitFor(() => expect(storage.names()).toEqual([PRECACHE]));
  });

  it('account deletion deletes the user’s caches', async () => {
    signedIn();
    const { user } = renderApp('/profile?type=delete_account');
    await screen.findByText('Danger zone', {}, FIRST);
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    await user.type(within(dialog).getByLabelText('Your email address'), 'user@example.com');
    await user.type(within(dialog).getByLabelText('Current password'), 'Secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(window.location.pathname).toBe('/login'), FIRST);
    await waitFor(() => expect(storage.names()).toEqual([PRECACHE]));
  });
});
