import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';
import { stubSignedInNoVideos, useStoredSession, type Routes } from '../../testing/signed-in';

const FIRST = { timeout: 15_000 };

useStoredSession();

function open(routes: Routes = {}) {
  const stub = stubSignedInNoVideos(routes);
  return { ...stub, ...renderApp('/profile?type=change_password') };
}

const save = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });

describe('Change password', { timeout: 30_000 }, () => {
  it('applies the password rules and messages of section 5 and keeps Save disabled', async () => {
    const { user } = open();
    const current = await screen.findByLabelText('Current password', {}, FIRST);
    const next = screen.getByLabelText('New password');
    const confirmation = screen.getByLabelText('Confirm password');
    expect(save().disabled).toBe(true);

    await user.type(current, 'Current2024');
    await user.type(next, 'short1');
    expect(screen.getByText('Please enter at least 8 characters')).toBeTruthy();
    await user.clear(next);
    await user.type(next, 'x'.repeat(21));
    expect(screen.getByText('Please enter no more than 20 characters')).toBeTruthy();
    await user.clear(next);
    await user.type(next, 'not-alpha-1');
    expect(screen.getByText('Please enter alphanumeric characters only')).toBeTruthy();
    await user.clear(next);
    await user.type(next, 'Fresh2024pass');
    await user.type(confirmation, 'Fresh2024pasS');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(save().disabled).toBe(true);

    await user.clear(confirmation);
    await user.type(confirmation, 'Fresh2024pass');
    expect(screen.queryByText('Passwords do not match')).toBeNull();
    expect(save().disabled).toBe(false);
  });

  it('shows the server detail of a refusal, and the success text after a change', async () => {
    let calls = 0;
    const { user, sent } = open({
      'POST /api/change-password': () =>
        ++calls === 1
          ? { status: 400, body: { detail: 'The current password is incorrect.' } }
          : { status: 200, body: { detail: 'ok' } },
    });
    await user.type(await screen.findByLabelText('Current password', {}, FIRST), 'Wrong2024pw');
    await user.type(screen.getByLabelText('New password'), 'Fresh2024pass');
    await user.type(screen.getByLabelText('Confirm password'), 'Fresh2024pass');
    await user.click(save());
    const refused = await screen.findByRole('alertdialog', {}, FIRST);
    expect(within(refused).getByText('The current password is incorrect.')).toBeTruthy();
    expect(screen.queryByText('Your password has been updated.')).toBeNull();
    await user.click(within(refused).getByRole('button', { name: 'OK' }));

    await user.click(save());
    expect(await screen.findByText('Your password has been updated.', {}, FIRST)).toBeTruthy();
    expect(
      sent.filter((r) => r.url.pathname === '/api/change-password').map((r) => r.body),
    ).toEqual(
      Array(2).fill({
        current_password: 'Wrong2024pw',
        new_password: 'Fresh2024pass',
        confirmation_password: 'Fresh2024pass',
      }),
    );
    // The form starts over for another change.
    expect(screen.getByLabelText<HTMLInputElement>('New password').value).toBe('');
  });
});
