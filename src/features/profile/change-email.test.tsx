import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loadStoredUser } from '../../lib/session-storage';
import { LOGIN_ANSWER } from '../../testing/fetch-stub';
import { renderApp } from '../../testing/render-app';
import { stubSignedInNoVideos, useStoredSession, type Routes } from '../../testing/signed-in';

const FIRST = { timeout: 15_000 };
const PROFILE = LOGIN_ANSWER.user;
const NEW_EMAIL = 'moved@example.com';

useStoredSession();

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

/** Opens Change email and completes step 1. */
async function toStepTwo(routes: Routes) {
  const stub = stubSignedInNoVideos({
    'POST /api/users/change-email-request': () => ({ status: 200, body: { detail: 'sent' } }),
    ...routes,
  });
  const app = renderApp('/profile?type=change_email');
  const { user } = app;
  await user.type(await screen.findByLabelText('New email', {}, FIRST), NEW_EMAIL);
  expect(button('Verification code').disabled).toBe(true);
  await user.type(screen.getByLabelText('Current password'), 'Secret2024ok');
  await user.click(button('Send code'));
  await screen.findByText(`We sent a 6-digit code to ${NEW_EMAIL}.`, { exact: false });
  return { ...stub, ...app };
}

describe('Change email', { timeout: 30_000 }, () => {
  it('verifies the pasted code, updates the shown e-mail and goes to the video list', async () => {
    const { user, sent, store } = await toStepTwo({
      'POST /api/users/change-email-verify-otp': () => ({
        status: 200,
        body: { ...PROFILE, email: NEW_EMAIL },
      }),
    });
    expect(sent.find((r) => r.url.pathname.endsWith('change-email-request'))?.body).toEqual({
      current_password: 'Secret2024ok',
      new_email: NEW_EMAIL,
      language: 'en',
    });
    expect(store.getState().session.pendingEmail).toBe(NEW_EMAIL);
    // Both steps are reached now; the resend waits out the server's spacing.
    expect(button('New email').disabled).toBe(false);
    expect(button('Resend code in 30 s').disabled).toBe(true);

    expect(button('Verify').disabled).toBe(true);
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.paste('123456');
    expect(button('Verify').disabled).toBe(false);
    await user.click(button('Verify'));

    const dialog = await screen.findByRole('dialog', {}, FIRST);
    expect(within(dialog).getByText('Your email has been updated.')).toBeTruthy();
    expect(sent.find((r) => r.url.pathname.endsWith('verify-otp'))?.body).toEqual({
      otp: '123456',
      new_email: NEW_EMAIL,
      language: 'en',
    });
    // The sidebar already shows the new address; the stored session carries it too.
    expect(screen.getAllByText(NEW_EMAIL).length).toBeGreaterThan(0);
    expect((await loadStoredUser())?.user.email).toBe(NEW_EMAIL);

    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(window.location.pathname).toBe('/video'));
    expect(store.getState().session.pendingEmail).toBeNull();
    expect(await screen.findByText('Currently, there are no videos.', {}, FIRST)).toBeTruthy();
    expect(screen.getAllByText(NEW_EMAIL).length).toBeGreaterThan(0);
    expect(screen.queryByText(PROFILE.email)).toBeNull();
  });

  it('shows a wrong code inline in red, and goes back to step 1 keeping the address', async () => {
    const { user } = await toStepTwo({
      'POST /api/users/change-email-verify-otp': () => ({
        status: 400,
        body: { detail: 'The code is incorrect. 4 tries left.' },
      }),
    });
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('654321');
    await user.click(button('Verify'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The code is incorrect. 4 tries left.');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(button('Back to step 1'));
    expect(screen.getByLabelText<HTMLInputElement>('New email').value).toBe(NEW_EMAIL);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('opens reached steps from the sidebar and resends a fresh code', async () => {
    const { user, sent } = await toStepTwo({});
    const requests = () => sent.filter((r) => r.url.pathname.endsWith('change-email-request'));
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('12');

    // Step 1 from the sidebar keeps the typed address; step 2 stays reachable.
    await user.click(button('New email'));
    expect(screen.getByLabelText<HTMLInputElement>('New email').value).toBe(NEW_EMAIL);
    expect(screen.queryByLabelText('Digit 1 of 6')).toBeNull();
    await user.click(button('Verification code'));
    expect(screen.getByLabelText<HTMLInputElement>('Digit 2 of 6').value).toBe('2');

    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    const resend = await screen.findByRole<HTMLButtonElement>('button', { name: 'Resend code' });
    vi.useRealTimers();
    await user.click(resend);
    expect((await screen.findByRole('status')).textContent).toBe('A new code has been sent.');
    expect(requests()).toHaveLength(2);
    expect(requests()[1]!.body).toEqual({
      current_password: 'Secret2024ok',
      new_email: NEW_EMAIL,
      language: 'en',
    });
    // The new code starts in empty boxes, and the next resend waits again.
    expect(screen.getByLabelText<HTMLInputElement>('Digit 1 of 6').value).toBe('');
    expect(button('Resend code in 30 s').disabled).toBe(true);
  });

  it('shows a refused request inline and stays on step 1, whose next step cannot be opened', async () => {
    stubSignedInNoVideos({
      'POST /api/users/change-email-request': () => ({
        status: 400,
        body: { detail: 'The current password is incorrect.' },
      }),
    });
    const { user } = renderApp('/profile?type=change_email');
    await user.type(await screen.findByLabelText('New email', {}, FIRST), NEW_EMAIL);
    await user.type(screen.getByLabelText('Current password'), 'Wrong2024pw');
    await user.click(button('Send code'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The current password is incorrect.',
    );
    expect(button('Verification code').disabled).toBe(true);
  });

  it('shows the wait when resending is rate limited', async () => {
    let calls = 0;
    const { user } = await toStepTwo({
      'POST /api/users/change-email-request': () =>
        ++calls === 1
          ? { status: 200, body: { detail: 'sent' } }
          : { status: 429, body: { detail: 'Too many attempts. Please try again in 1 minute.' } },
    });
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    const resend = await screen.findByRole<HTMLButtonElement>('button', { name: 'Resend code' });
    vi.useRealTimers();
    await user.click(resend);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please try again in 1 minute.',
    );
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: /^Resend code in \d+ s$/ }).disabled,
    ).toBe(true);
  });
});
