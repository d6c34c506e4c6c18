// Journeys of issue 2: the first login of an admin-made account, a wrong password, and a
// signed-out visit to a signed-in page.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { adminCreateUser } from './support/admin.ts';
import { makeDataDir, startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, messages, waitForPath, where } from './support/ui.ts';

const EMPTY_LIST = 'Currently, there are no videos.';
const en = messages('en');

let app: E2eApp;
let initialPassword: string;
const newcomer = 'newcomer@example.com';
const member = 'member@example.com';
const memberPassword = 'Member2024pass';

before(async () => {
  const dataDir = makeDataDir();
  // The provider makes the account with the admin command before the server starts.
  initialPassword = adminCreateUser(dataDir, newcomer, 'Harbour Films');
  app = await startApp({ dataDir });
  await app.createUser({ email: member, password: memberPassword });
});

after(async () => {
  await app?.close();
});

journey(
  'an admin-created user logs in, changes the initial password and reaches the empty video list',
  () => app,
  async (page) => {
    await page.goto('/login');
    await logIn(page, newcomer, initialPassword);

    // The app leads the user to Profile > Change password.
    await waitForPath(page, '/profile?type=change_password');
    await page.getByText(en['password.mustChange']!).waitFor();
    await page.getByLabel('Current password', { exact: true }).fill(initialPassword);
    await page.getByLabel('New password', { exact: true }).fill('Fresh2024start');
    await page.getByLabel('Confirm password', { exact: true }).fill('Fresh2024start');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Your password has been updated.').waitFor();

    await page.getByRole('link', { name: 'Video', exact: true }).first().click();
    await waitForPath(page, '/video');
    await page.getByText(EMPTY_LIST, { exact: true }).waitFor();
    // The layout shows who is signed in and in which team.
    await page.getByText(newcomer).first().waitFor();
    await page.getByText('Harbour Films').first().waitFor();

    // The new password is the one that works from now on.
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await waitForPath(page, '/login');
    await logIn(page, newcomer, 'Fresh2024start');
    await waitForPath(page, '/video');
    await page.getByText(EMPTY_LIST, { exact: true }).waitFor();
  },
);

journey(
  'a wrong password shows the two-line error dialog',
  () => app,
  async (page) => {
    await page.goto('/login');
    await logIn(page, member, 'Wrong2024pass');
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await dialog
      .getByText('The email or password seems to be incorrect. Please enter it again.', {
        exact: true,
      })
      .waitFor();
    await dialog
      .getByText('※ Please ensure that Caps Lock is off and enter the information correctly.', {
        exact: true,
      })
      .waitFor();
    assert.equal(where(page), '/login');
  },
);

journey(
  'a signed-out visit to /video goes to Login and comes back after login',
  () => app,
  async (page) => {
    await page.goto('/video?tsiletihw=1');
    await page.waitForURL((u) => u.pathname === '/login');
    assert.equal(new URL(page.url()).searchParams.get('tsiletihw'), '1', where(page));
    await logIn(page, member, memberPassword);
    await waitForPath(page, '/video?tsiletihw=1');
    await page.getByText(EMPTY_LIST, { exact: true }).waitFor();
  },
);
