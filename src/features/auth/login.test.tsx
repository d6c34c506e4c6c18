import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGIN_ANSWER, stubFetch } from '../../testing/fetch-stub';
import { renderApp } from '../../testing/render-app';
import { EMPTY_LIST, useSignedOut } from '../../testing/signed-in';

// The first render loads lazy route chunks, which vitest transforms on demand.
const FIRST = { timeout: 15_000 };

useSignedOut();

describe('Login screen', { timeout: 30_000 }, () => {
  it('keeps Log in disabled while fields are empty or invalid', async () => {
    stubFetch({});
    const { user } = renderApp('/login');
    const button = await screen.findByRole('button', { name: 'Log in' }, FIRST);
    expect(button).toHaveProperty('disabled', true);

    await user.type(screen.getByLabelText('Email'), 'user@localhost');
    await user.type(screen.getByLabelText('Password'), 'short');
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Please enter at least 8 characters')).toBeTruthy();
    expect(button).toHaveProperty('disabled', true);

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'user@example.com');
    await user.type(screen.getByLabelText('Password'), '123');
    expect(button).toHaveProperty('disabled', false);
  });

  it('shows the two-line error dialog when the server refuses the login', async () => {
    const { sent } = stubFetch({
      'POST /api/login': () => ({ status: 401, body: { detail: 'Incorrect email or password' } }),
    });
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email', {}, FIRST), 'user@example.com');
    await user.type(screen.getByLabelText('Password'), 'Wrong2024pass');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    expect(
      within(dialog).getByText(
        'The email or password seems to be incorrect. Please enter it again.',
      ),
    ).toBeTruthy();
    expect(
      within(dialog).getByText(
        '※ Please ensure that Caps Lock is off and enter the information correctly.',
      ),
    ).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(sent[0]?.body).toEqual({ email: 'user@example.com', password: 'Wrong2024pass' });
    expect(sent[0]?.headers.Authorization).toBeUndefined();
  });

  it('brings a signed-out visitor back to the page they wanted, keeping tsiletihw', async () => {
    stubFetch({
      'POST /api/login': () => ({ status: 200, body: LOGIN_ANSWER }),
      'GET /api/refresh': () => ({ status: 200, body: LOGIN_ANSWER }),
      'GET /api/profile': () => ({ status: 200, body: LOGIN_ANSWER.user }),
      'GET /api/videos': () => ({ status: 200, body: EMPTY_LIST }),
    });
    const { user, store } = renderApp('/video?tsiletihw=1');
    await waitFor(() => expect(window.location.pathname).toBe('/login'), FIRST);
    expect(window.location.search).toBe('?tsiletihw=1');

    await user.type(await screen.findByLabelText('Email', {}, FIRST), 'user@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret2024ok');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('Currently, there are no videos.', {}, FIRST)).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe('/video?tsiletihw=1');
    expect(store.getState().session.currentUser?.accessToken).toBe('token-1');
    expect(screen.getAllByText('Harbour Films')[0]).toBeTruthy();
  });

  it('leads a user with an initial password to Change password', async () => {
    const forced = { ...LOGIN_ANSWER, user: { ...LOGIN_ANSWER.user, must_change_password: true } };
    stubFetch({
      'POST /api/login': () => ({ status: 200, body: forced }),
      'GET /api/profile': () => ({ status: 200, body: forced.user }),
    });
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email', {}, FIRST), 'user@example.com');
    await user.type(screen.getByLabelText('Password'), 'Initial2024pw');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(
      () =>
        expect(window.location.pathname + window.location.search).toBe(
          '/profile?type=change_password',
        ),
      FIRST,
    );
    expect(await screen.findByLabelText('Current password', {}, FIRST)).toBeTruthy();
    expect(screen.getByLabelText('New password')).toBeTruthy();
    expect(screen.getByLabelText('Confirm password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });
});
