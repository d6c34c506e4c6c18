// Journeys of issue 7: the five Profile sections, with the e-mail code read from the outbox and
// an account deletion after which the login fails.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { extractCode, waitForMessage } from '../support/outbox.ts';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, waitForPath, where } from './support/ui.ts';

const PASSWORD = 'Profile2024pass';
const TEAM = 'Harbour Films';
const EMPTY_LIST = 'Currently, there are no videos.';

let app: E2eApp;

before(async () => {
  app = await startApp();
  for (const name of ['account', 'taken', 'mover', 'changer', 'exporter', 'leaver']) {
    await app.createUser({ email: `${name}@example.com`, password: PASSWORD, team: TEAM });
  }
});

after(async () => {
  await app?.close();
});

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await logIn(page, email, password);
  await waitForPath(page, '/video');
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

journey(
  'Account: names are saved, a taken username shows the server detail',
  () => app,
  async (page) => {
    await signIn(page, 'account@example.com');
    await page.getByRole('link', { name: 'Profile', exact: true }).first().click();
    await waitForPath(page, '/profile');
    const fullName = page.getByLabel('Full name', { exact: true });
    const username = page.getByLabel('Username', { exact: true });
    assert.equal(await fullName.inputValue(), 'E2E User');
    assert.equal(await page.getByLabel('Team', { exact: true }).inputValue(), TEAM);

    await fullName.fill('');
    assert.equal(await button(page, 'Save').isDisabled(), true);
    await fullName.fill('Ada Lovelace');
    await username.fill('taken');
    await button(page, 'Save').click();
    const refused = page.getByRole('alertdialog');
    await refused.getByText('username is already taken', { exact: true }).waitFor();
    await refused.getByRole('button', { name: 'OK' }).click();

    await username.fill('ada.l');
    await button(page, 'Save').click();
    const saved = page.getByRole('dialog');
    await saved.getByText('Your profile has been updated.', { exact: true }).waitFor();
    await saved.getByRole('button', { name: 'OK' }).click();

    await page.reload();
    await page.getByLabel('Full name', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Full name', { exact: true }).inputValue(), 'Ada Lovelace');
    assert.equal(await page.getByLabel('Username', { exact: true }).inputValue(), 'ada.l');
  },
);

journey(
  'Change email: the code from the outbox moves the account to the new address',
  () => app,
  async (page) => {
    const newEmail = 'moved@example.com';
    await signIn(page, 'mover@example.com');
    await page.goto('/profile?type=change_email');
    assert.equal(await button(page, 'Verification code').isDisabled(), true);
    await page.getByLabel('New email', { exact: true }).fill(newEmail);
    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await button(page, 'Send code').click();
    await page.getByText(`We sent a 6-digit code to ${newEmail}.`, { exact: false }).waitFor();
    const mail = await waitForMessage(app.dataDir, { to: newEmail });
    const code = extractCode(mail.text);

    // A wrong code first (only its last digit differs), pasted into the third box as it would
    // be copied from a mail: it fills every box. The error shows inline, in red.
    const wrong = code.slice(0, 5) + String((Number(code[5]) + 1) % 10);
    assert.equal(await button(page, 'Verify').isDisabled(), true);
    await page.getByLabel('Digit 3 of 6').evaluate((box, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', ` ${text.slice(0, 3)} ${text.slice(3)} `);
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    }, wrong);
    for (let i = 0; i < 6; i += 1) {
      assert.equal(await page.getByLabel(`Digit ${i + 1} of 6`).inputValue(), wrong[i]);
    }
    await button(page, 'Verify').click();
    const inline = page
      .getByRole('alert')
      .filter({ hasText: 'The code is incorrect. 4 tries left.' });
    await inline.waitFor();
    const colour = await inline.evaluate((element) => getComputedStyle(element).color);
    const [red = 0, green = 0, blue = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
    assert.ok(red > 100 && red > 2 * green && red > 2 * blue, `inline error colour ${colour}`);

    // The right code over the wrong one, typed box by box: each digit moves to the next box,
    // also where it equals the digit already there.
    await page.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type(code);
    for (let i = 0; i < 6; i += 1) {
      assert.equal(await page.getByLabel(`Digit ${i + 1} of 6`).inputValue(), code[i]);
    }
    await button(page, 'Verify').click();
    const done = page.getByRole('dialog');
    await done.getByText('Your email has been updated.', { exact: true }).waitFor();
    await done.getByRole('button', { name: 'OK' }).click();
    await waitForPath(page, '/video');
    await page.getByText(EMPTY_LIST, { exact: true }).waitFor();
    await page.getByText(newEmail, { exact: true }).first().waitFor();
    assert.equal(await page.getByText('mover@example.com', { exact: true }).count(), 0);
    // The previous address is told of the change.
    await waitForMessage(app.dataDir, { to: 'mover@example.com' });

    await button(page, 'Logout').click();
    await waitForPath(page, '/login');
    await signIn(page, newEmail);
    await page.getByText(newEmail, { exact: true }).first().waitFor();
  },
);

journey(
  'Change password: the new password is the one that works',
  () => app,
  async (page) => {
    await signIn(page, 'changer@example.com');
    await page.goto('/profile?type=change_password');
    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('Changed2024pass');
    await page.getByLabel('Confirm password', { exact: true }).fill('Changed2024pass');
    await button(page, 'Save').click();
    await page.getByText('Your password has been updated.', { exact: true }).waitFor();
    await button(page, 'Logout').click();
    await waitForPath(page, '/login');
    await signIn(page, 'changer@example.com', 'Changed2024pass');
  },
);

journey(
  'Export profile: profile.csv with a byte-order mark, the header and one row',
  () => app,
  async (page) => {
    await signIn(page, 'exporter@example.com');
    await page.goto('/profile?type=export_profile');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      button(page, 'Download profile.csv').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'profile.csv');
    const bytes = fs.readFileSync(await download.path());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(
      bytes.subarray(3).toString('utf8'),
      `email,fullName,username,team\r\nexporter@example.com,E2E User,exporter,${TEAM}\r\n`,
    );
  },
);

journey(
  'Delete account: the typed e-mail must match and the password is checked, then logout, and the login fails',
  () => app,
  async (page) => {
    const email = 'leaver@example.com';
    await signIn(page, email);
    await page.goto('/profile?type=delete_account');
    await page.getByText('Danger zone', { exact: true }).waitFor();
    await button(page, 'Delete account').click();
    const popup = page.getByRole('alertdialog');
    await popup.getByRole('button', { name: 'Cancel' }).click();
    await popup.waitFor({ state: 'detached' });

    await button(page, 'Delete account').click();
    const remove = popup.getByRole('button', { name: 'Delete', exact: true });
    await popup.getByLabel('Your email address').fill('someone@example.com');
    assert.equal(await remove.isDisabled(), true);
    await popup.getByLabel('Your email address').fill(email);
    assert.equal(await remove.isDisabled(), true);
    await popup.getByLabel('Current password').fill('Wrong9999');
    await remove.click();
    await popup.getByText('The current password is incorrect.').waitFor();
    assert.equal(where(page), '/profile?type=delete_account');
    await popup.getByLabel('Current password').fill(PASSWORD);
    await remove.click();
    await waitForPath(page, '/login');

    await logIn(page, email, PASSWORD);
    await page
      .getByText('The email or password seems to be incorrect. Please enter it again.')
      .waitFor();
    assert.equal(where(page), '/login');
  },
);
