import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loadStoredUser } from '../../lib/session-storage';
import { renderApp } from '../../testing/render-app';
import { stubSignedIn, useStoredSession } from '../../testing/signed-in';

const FIRST = { timeout: 15_000 };

useStoredSession();

describe('Delete account', { timeout: 30_000 }, () => {
  it('enables Delete only for the exact e-mail and a password, Cancel closes, deletion logs out', async () => {
    const { sent } = stubSignedIn({
      'DELETE /api/users/7': (request) =>
        (request.body as { current_password?: string }).current_password === 'Secret123'
          ? { status: 200, body: { status: 'deleted' } }
          : { status: 400, body: { detail: 'The current password is incorrect.' } },
    });
    const { user, store } = renderApp('/profile?type=delete_account');
    expect(await screen.findByText('Danger zone', {}, FIRST)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    let dialog = await screen.findByRole('alertdialog', {}, FIRST);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    dialog = await screen.findByRole('alertdialog', {}, FIRST);
    const remove = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Delete' });
    const typed = within(dialog).getByLabelText('Your email address');
    expect(remove.disabled).toBe(true);
    await user.type(typed, 'USER@example.com');
    expect(remove.disabled).toBe(true); // exactly, not case-insensitively
    await user.clear(typed);
    await user.type(typed, 'user@example.co');
    expect(remove.disabled).toBe(true);
    await user.type(typed, 'm');
    expect(remove.disabled).toBe(true); // the password is still missing
    const password = within(dialog).getByLabelText('Current password');
    await user.type(password, 'Wrong1234');
    expect(remove.disabled).toBe(false);
    expect(sent.some((r) => r.method === 'DELETE')).toBe(false);

    // A wrong password keeps the popup open with the server's words, and the account.
    await user.click(remove);
    expect(await within(dialog).findByText('The current password is incorrect.')).toBeTruthy();
    expect(window.location.pathname).toBe('/profile');

    await user.clear(password);
    await user.type(password, 'Secret123');
    await user.click(remove);
    await waitFor(() => expect(window.location.pathname).toBe('/login'), FIRST);
    expect(sent.filter((r) => r.method === 'DELETE').map((r) => [r.url.pathname, r.body])).toEqual([
      ['/api/users/7', { current_password: 'Wrong1234' }],
      ['/api/users/7', { current_password: 'Secret123' }],
    ]);
    expect(store.getState().session.currentUser).toBeNull();
    expect(await loadStoredUser()).toBeNull();
    // Logout purged the cached answers (the profile among them).
    expect(store.getState().api?.queries ?? {}).toEqual({});
  });
});
