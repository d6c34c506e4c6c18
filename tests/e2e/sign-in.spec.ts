// Journeys of issue 2: a wrong password, and a signed-out visit to a signed-in page.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, waitForPath, where } from './support/ui.ts';

const EMPTY_LIST = 'Currently, there are no videos.';

let app: E2eApp;
const member = 'member@example.com';
const memberPassword = 'Member2024pass';

before(async () => {
  app = await startApp();
  await app.createUser({ email: member, password: memberPassword });
});

after(async () => {
  await app?.close();
});

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
