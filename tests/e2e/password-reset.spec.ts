// Journey of issue 2: forgot password -> e-mail in the outbox -> reset -> log in again.
import { after, before } from 'node:test';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { extractLink, waitForMessage } from '../support/outbox.ts';
import { logIn, messages, waitForPath } from './support/ui.ts';

let app: E2eApp;
const email = 'forgetful@example.com';
const japaneseUser = 'wasureta@example.com';
const ja = messages('ja');

before(async () => {
  app = await startApp();
  await app.createUser({ email, password: 'Old2024secret' });
  await app.createUser({ email: japaneseUser, password: 'Old2024secret' });
});

after(async () => {
  await app?.close();
});

journey(
  'a user resets a forgotten password through the e-mailed link',
  () => app,
  async (page) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?', exact: true }).click();
    await waitForPath(page, '/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByText(
        'If there is an account associated with this email, you will receive instructions on how to reset your password.',
      )
      .waitFor();

    const mail = await waitForMessage(app.dataDir, { to: email });
    const link = extractLink(mail.text, '/reset-password');
    if (!link.startsWith(`${app.url}/reset-password?resetToken=`)) {
      throw new Error(`the link is not built from PUBLIC_URL: ${link}`);
    }
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill('New2024secret');
    await page.getByLabel('Confirm password', { exact: true }).fill('New2024secret');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByText('Your password has been reset. Please try logging in').waitFor();

    // The link works once: opening it again ends in the invalid-link state.
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill('Other2024secret');
    await page.getByLabel('Confirm password', { exact: true }).fill('Other2024secret');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByText('Reset Link Invalid').first().waitFor();

    await page.goto('/login');
    await logIn(page, email, 'New2024secret');
    await waitForPath(page, '/video');
  },
);

journey(
  'a reset asked for in Japanese is mailed in Japanese',
  () => app,
  async (page) => {
    await page.goto('/forgot-password');
    await page.getByLabel('Language', { exact: true }).first().selectOption('ja');
    await page.getByLabel(ja['forgot.email']!, { exact: true }).fill(japaneseUser);
    await page.getByRole('button', { name: ja['forgot.submit']!, exact: true }).click();
    await page.getByText(ja['forgot.successBody']!).waitFor();
    const mail = await waitForMessage(app.dataDir, { to: japaneseUser });
    if (!mail.subject.includes('パスワード再設定')) {
      throw new Error(`the reset mail is not in Japanese: ${mail.subject}`);
    }
  },
);
