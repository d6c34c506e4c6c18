import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ja from '../../../lang/ja.json';
import { LOGIN_ANSWER } from '../../testing/fetch-stub';
import { renderApp } from '../../testing/render-app';
import { renderAt } from '../../testing/render-at';
import { stubSignedInNoVideos, useStoredSession } from '../../testing/signed-in';

// The first render loads lazy route chunks, which vitest transforms on demand.
const FIRST = { timeout: 15_000 };
const PROFILE = LOGIN_ANSWER.user;

useStoredSession();

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('Profile', { timeout: 30_000 }, () => {
  it('opens the section named by ?type= in any case, Account otherwise', async () => {
    stubSignedInNoVideos();
    const first = renderApp('/profile?type=EXPORT_PROFILE');
    expect(await screen.findByRole('heading', { name: 'Export profile' }, FIRST)).toBeTruthy();
    await waitFor(() => expect(window.location.search).toBe('?type=export_profile'));
    first.unmount();
    renderApp('/profile?type=nonsense');
    expect(await screen.findByRole('heading', { name: 'Account' }, FIRST)).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Team').readOnly).toBe(true);
    await waitFor(() => expect(window.location.search).toBe('?type=account'));
  });

  it('switches sections from the side menu, naming them in lower case in the query', async () => {
    stubSignedInNoVideos();
    const { user } = renderApp('/profile');
    const menu = await screen.findByRole('navigation', { name: 'Profile sections' }, FIRST);
    const links = within(menu).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Account',
      'Change email',
      'Change password',
      'Export profile',
      'Delete account',
    ]);
    const current = () => within(menu).getByRole('link', { current: 'page' }).textContent;
    expect(current()).toBe('Account');

    await user.click(within(menu).getByRole('link', { name: 'Change password' }));
    expect(await screen.findByLabelText('Confirm password', {}, FIRST)).toBeTruthy();
    expect(window.location.search).toBe('?type=change_password');
    expect(current()).toBe('Change password');

    await user.click(within(menu).getByRole('link', { name: 'Delete account' }));
    expect(await screen.findByText('Danger zone', {}, FIRST)).toBeTruthy();
    expect(window.location.search).toBe('?type=delete_account');
    expect(screen.queryByLabelText('Confirm password')).toBeNull();
  });

  it('stays blank until the profile arrives', async () => {
    const { sent } = stubSignedInNoVideos({
      'GET /api/profile': () => ({ status: 500, body: { detail: 'down' } }),
    });
    renderApp('/profile?type=account');
    // The layout is there (its sidebar falls back to the session's e-mail), the page is not.
    expect((await screen.findAllByText(PROFILE.email, {}, FIRST)).length).toBeGreaterThan(0);
    await waitFor(() => expect(sent.some((r) => r.url.pathname === '/api/profile')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Profile' })).toBeNull();
    expect(screen.queryByLabelText('Full name')).toBeNull();
  });

  it('keeps Save disabled while a name is empty or invalid, then saves', async () => {
    const { sent } = stubSignedInNoVideos({
      'PUT /api/users/update-profile': () => ({
        status: 200,
        body: { ...PROFILE, full_name: 'New Name', username: 'new.name' },
      }),
    });
    const { user } = renderApp('/profile');
    const fullName = await screen.findByLabelText<HTMLInputElement>('Full name', {}, FIRST);
    const username = screen.getByLabelText<HTMLInputElement>('Username');
    expect(fullName.value).toBe('Test User');
    expect(screen.getByLabelText<HTMLInputElement>('Team').value).toBe('Harbour Films');

    await user.clear(fullName);
    expect(button('Save').disabled).toBe(true);
    expect(screen.getByText('This field is required')).toBeTruthy();
    await user.type(fullName, 'New Name');
    expect(button('Save').disabled).toBe(false);

    await user.clear(username);
    await user.type(username, 'no spaces');
    expect(button('Save').disabled).toBe(true);
    expect(screen.getByText('Username is not valid.')).toBeTruthy();
    await user.clear(username);
    await user.type(username, 'ab');
    expect(button('Save').disabled).toBe(true);
    await user.type(username, 'new.name');
    await user.clear(username);
    await user.type(username, 'new.name');
    expect(button('Save').disabled).toBe(false);

    await user.click(button('Save'));
    const dialog = await screen.findByRole('dialog', {}, FIRST);
    expect(within(dialog).getByText('Your profile has been updated.')).toBeTruthy();
    const put = sent.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({ full_name: 'New Name', username: 'new.name' });
  });

  it('names the invalid field in Japanese for a Japanese user', async () => {
    stubSignedInNoVideos();
    const { user } = await renderAt('/profile?type=account', { locale: 'ja', signedIn: true });
    const username = await screen.findByLabelText<HTMLInputElement>(
      ja['profile.account.username'],
      {},
      FIRST,
    );
    await user.clear(username);
    await user.type(username, 'no spaces');
    expect(await screen.findByText('ユーザー名が正しくありません。')).toBeTruthy();
    expect(screen.queryByText(/Username/)).toBeNull();
  });

  it.each([
    [
      'a list detail, each message led by the camel-cased field',
      {
        detail: [
          { loc: ['body', 'full_name'], msg: 'full_name must be at most 100 characters' },
          { loc: ['body', 'username'], msg: 'username is already taken' },
        ],
      },
      ['fullName must be at most 100 characters', 'username is already taken'],
    ],
    ['a string detail as it is', { detail: 'Try later.' }, ['Try later.']],
    ['anything else as the unknown error', { message: 'odd' }, ['An unknown error occurred']],
  ])('shows a failed save with %s', async (_name, body, expected) => {
    stubSignedInNoVideos({ 'PUT /api/users/update-profile': () => ({ status: 422, body }) });
    const { user } = renderApp('/profile?type=account');
    await screen.findByLabelText('Full name', {}, FIRST);
    await user.type(screen.getByLabelText('Full name'), '!');
    await user.click(button('Save'));
    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    // One line per message, in the order the server gave them.
    const text = within(dialog).getByText(expected[0]!, { exact: false });
    expect(text.textContent).toBe(expected.join('\n'));
  });
});
