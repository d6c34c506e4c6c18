// Journey of issue 2: switching to Japanese sticks across a reload, signed out and signed in.
import { after, before } from 'node:test';
import { startApp, type E2eApp } from './support/app.ts';
import { journey } from './support/journey.ts';
import { logIn, messages, waitForPath } from './support/ui.ts';

const ja = messages('ja');
let app: E2eApp;
const email = 'bilingual@example.com';
const password = 'Nihongo2024ok';

before(async () => {
  app = await startApp();
  await app.createUser({ email, password });
});

after(async () => {
  await app?.close();
});

journey(
  'the Japanese language choice persists across reloads',
  () => app,
  async (page) => {
    await page.goto('/login');
    await page.getByLabel('Language', { exact: true }).first().selectOption('ja');
    const jaLogin = page.getByRole('button', { name: ja['login.submit']!, exact: true });
    await jaLogin.waitFor();

    await page.reload();
    await jaLogin.waitFor();

    await logIn(page, email, password, ja);
    await waitForPath(page, '/video');
    await page.getByText(ja['videos.emptyTitle']!, { exact: true }).waitFor();
    await page.reload();
    await page.getByText(ja['videos.emptyTitle']!, { exact: true }).waitFor();
  },
);

journey(
  'a Japanese browser gets Japanese without choosing',
  () => app,
  async (page) => {
    await page.goto('/login');
    await page.getByRole('button', { name: ja['login.submit']!, exact: true }).waitFor();
  },
  { locale: 'ja-JP' },
);
