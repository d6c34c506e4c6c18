// Journey of issue 2: the provider makes an account with the admin command; the user logs in,
// is led to change the initial password, and reaches the (empty) video list.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { adminCreateUser } from './support/admin.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, messages, waitForPath } from './support/ui.ts';

const EMPTY_LIST = 'Currently, there are no videos.';
const en = messages('en');

let app: E2eApp;
let initialPassword: string;
const newcomer = 'newcomer@example.com';

before(async () => {
  // An empty DATA_DIR: the provider makes the account with the admin command before the server
  // ever starts, and the command makes the database.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-e2e-'));
  initialPassword = adminCreateUser(dataDir, newcomer, 'Harbour Films');
  app = await startApp({ dataDir });
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
