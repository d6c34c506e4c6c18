import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../../lang/en.json';
import { stubFetch } from '../../testing/fetch-stub';
import { renderApp } from '../../testing/render-app';
import { useSignedOut } from '../../testing/signed-in';

// The first render loads lazy route chunks, which vitest transforms on demand.
const FIRST = { timeout: 15_000 };

useSignedOut();

async function askForLink(status: number, role: 'dialog' | 'alertdialog') {
  const { sent } = stubFetch({
    'POST /api/forgot-password': () => ({ status, body: { detail: 'whatever the server says' } }),
  });
  const { user } = renderApp('/forgot-password');
  const send = await screen.findByRole('button', { name: 'Send' }, FIRST);
  expect(send).toHaveProperty('disabled', true);
  await user.type(screen.getByLabelText('Email'), 'someone@example.com');
  await user.click(send);
  const dialog = await screen.findByRole(role, {}, FIRST);
  return { sent, dialog, user };
}

describe('Forgot password (sections 2, 7 and 8)', { timeout: 30_000 }, () => {
  it('sends the e-mail without a token and shows the neutral popup titled Check your email', async () => {
    const { sent, dialog } = await askForLink(200, 'dialog');
    expect(within(dialog).getByText('Check your email')).toBeTruthy();
    expect(within(dialog).getByText(en['forgot.successBody'])).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ email: 'someone@example.com' });
    expect(sent[0]?.headers.Authorization).toBeUndefined();
  });

  it('shows the same neutral popup on a 401, and stays on the page', async () => {
    const { dialog } = await askForLink(401, 'dialog');
    expect(within(dialog).getByText('Check your email')).toBeTruthy();
    expect(within(dialog).getByText(en['forgot.successBody'])).toBeTruthy();
    expect(window.location.pathname).toBe('/forgot-password');
  });

  it('shows the error popup on other failures', async () => {
    const { dialog } = await askForLink(500, 'alertdialog');
    expect(within(dialog).getByText(en['forgot.errorBody'])).toBeTruthy();
    expect(within(dialog).queryByText(en['forgot.successBody'])).toBeNull();
  });

  it('validates the e-mail and links back to Login', async () => {
    stubFetch({});
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Email', {}, FIRST), 'someone@localhost');
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('link', { name: 'Back to Log in' }));
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });
});

async function submitNewPassword(path: string, answer: { status: number; body?: unknown }) {
  const { sent } = stubFetch({ 'POST /api/reset-password': () => answer });
  const { user } = renderApp(path);
  await user.type(await screen.findByLabelText('Password', {}, FIRST), 'Fresh2024pass');
  await user.type(screen.getByLabelText('Confirm password'), 'Fresh2024pass');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  return { sent, user };
}

describe('Reset password (sections 2, 4, 7 and 8)', { timeout: 30_000 }, () => {
  it('sends password, confirmation and the resetToken of the query; success leads to Login', async () => {
    const { sent, user } = await submitNewPassword('/reset-password?resetToken=tok%2Fen-1', {
      status: 200,
      body: { detail: 'ok' },
    });
    const dialog = await screen.findByRole('dialog', {}, FIRST);
    expect(within(dialog).getByText(en['reset.successBody'])).toBeTruthy();
    expect(sent[0]?.body).toEqual({
      password: 'Fresh2024pass',
      confirmationPassword: 'Fresh2024pass',
      resetToken: 'tok/en-1',
    });
    expect(sent[0]?.headers.Authorization).toBeUndefined();
    await user.click(within(dialog).getAllByRole('button')[0]!);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('shows the invalid-link state on a 401', async () => {
    await submitNewPassword('/reset-password?resetToken=spent', {
      status: 401,
      body: { detail: 'This link is invalid or has expired.' },
    });
    expect(await screen.findByText('Reset Link Invalid', {}, FIRST)).toBeTruthy();
    expect(screen.getByText(en['reset.invalidBody'])).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(window.location.pathname).toBe('/reset-password');
  });

  it('links the invalid-link state to Login, as the reset screen of section 2 has', async () => {
    stubFetch({});
    const { user } = renderApp('/reset-password');
    await screen.findByText('Reset Link Invalid', {}, FIRST);
    expect(screen.getByRole('link', { name: en['login.forgotPassword'] })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Back to Log in' }));
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('shows the general error on other failures and keeps the form', async () => {
    await submitNewPassword('/reset-password?resetToken=abc', { status: 500 });
    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    expect(within(dialog).getByText(en['reset.errorBody'])).toBeTruthy();
    expect(screen.queryByText('Reset Link Invalid')).toBeNull();
  });

  it('shows the invalid-link state at once when the link has no token', async () => {
    stubFetch({});
    renderApp('/reset-password');
    expect(await screen.findByText('Reset Link Invalid', {}, FIRST)).toBeTruthy();
  });

  it('checks the password rules and the confirmation before enabling Submit', async () => {
    stubFetch({});
    const { user } = renderApp('/reset-password?resetToken=abc');
    await user.type(await screen.findByLabelText('Password', {}, FIRST), 'Fresh2024pass');
    await user.type(screen.getByLabelText('Confirm password'), 'Fresh2024pasX');
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveProperty('disabled', true);
  });
});
