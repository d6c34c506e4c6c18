// Issue 8: an axe-core check on every route, signed out and signed in (with a seeded completed
// video so the detail, frames and search screens have content), and on the offline banner and the
// update prompt. No violation of impact serious or critical is allowed; a failure lists each one
// with the elements it found. The server serves a copy of the build so the update prompt's
// journey can change sw.js under it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { startApp, type E2eApp } from './support/app.ts';
import { seedHarbourVideo } from './support/browse.ts';
import { journey } from './support/journey.ts';
import { ROOT } from './support/paths.ts';
import { copyOfWebBuild, releaseNewWorker, signInControlled } from './support/service-worker.ts';
import { logIn, messages, waitForPath } from './support/ui.ts';

// Run through the DevTools protocol rather than as a <script>: the app's Content-Security-Policy
// rightly refuses an inline script it does not know.
const AXE_SOURCE = fs.readFileSync(
  path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'),
  'utf8',
);
const PASSWORD = 'Axe2024password';
const EMAIL = 'axe@example.com';
/** The Profile sections (src/config/routes.ts PROFILE_SECTIONS, as their ?type= values). */
const PROFILE_TYPES = [
  'account',
  'change_email',
  'change_password',
  'export_profile',
  'delete_account',
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

let app: E2eApp;
let webRoot: string;
let videoId = '';

before(async () => {
  webRoot = copyOfWebBuild('a11y');
  app = await startApp({ webRoot });
  const userId = await app.createUser({ email: EMAIL, password: PASSWORD, team: 'Axe team' });
  videoId = (await seedHarbourVideo(app, userId)).id;
});

after(async () => {
  await app?.close();
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

/** Opens the route, waits until the screen has settled, and returns its serious violations. */
async function audit(page: Page, route: string): Promise<string[]> {
  await page.goto(route);
  await page.waitForLoadState('networkidle');
  // Lazy chunks and data render after the network settles; give React a frame or two.
  await page.locator('h1, h2').first().waitFor();
  await page.waitForTimeout(300);
  // The audit is of the intended screen, not of a redirect (login, 404).
  assert.equal(new URL(page.url()).pathname, new URL(route, page.url()).pathname, route);
  return auditShown(page, route);
}

/** The serious violations of the page as it is now, each line led by `label`. */
async function auditShown(page: Page, label: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<unknown> } }).axe;
    const result = (await axe.run(document)) as { violations: Violation[] };
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const nodes = v.nodes
        .map(
          (n) =>
            `      ${JSON.stringify(n.target)} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
        )
        .join('\n');
      return `${label}: ${v.id} (${v.impact}) ${v.help}\n${nodes}`;
    });
}

async function auditAll(page: Page, routes: string[]): Promise<void> {
  const found: string[] = [];
  for (const route of routes) found.push(...(await audit(page, route)));
  assert.deepEqual(found, [], `axe found serious or critical violations:\n${found.join('\n')}`);
}

journey(
  'signed-out routes have no serious or critical axe violations',
  () => app,
  async (page) => {
    await auditAll(page, [
      '/',
      '/login',
      '/forgot-password',
      '/reset-password?resetToken=x',
      '/privacy-policy',
    ]);
  },
);

journey(
  'signed-in routes have no serious or critical axe violations',
  () => app,
  async (page) => {
    await page.goto('/login');
    await logIn(page, EMAIL, PASSWORD);
    await waitForPath(page, '/video');
    await auditAll(page, [
      '/video',
      `/video-detail/${videoId}`,
      `/video-detail/${videoId}/scene/0/frames`,
      `/video-detail/${videoId}?sceneIndex=1`,
      '/advanced-search',
      `/advanced-search/${videoId}`,
      `/advanced-search/${videoId}?sceneIndex=1&video=false`,
      `/video/similar/${videoId}?video=true&kValue=10&searchMethod=hybrid`,
      `/video/similar/${videoId}?sceneIndex=1&video=false&kValue=10&searchMethod=hybrid&searchScope=all`,
      '/404', // signed out it sends to Login like any other page
      '/profile',
      ...PROFILE_TYPES.map((type) => `/profile?type=${type}`),
    ]);
  },
  { timeoutMs: 240_000 },
);

journey(
  'the offline banner and the update prompt have no serious or critical axe violations',
  () => app,
  async (page) => {
    const m = messages('en');
    await signInControlled(page, EMAIL, PASSWORD);

    await page.context().setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    const found = await auditShown(page, 'offline banner on /video');
    await page.context().setOffline(false);
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });

    await releaseNewWorker(page, webRoot);
    await page.getByTestId('update-prompt').getByText(m['pwa.updateAvailable']!).waitFor();
    found.push(...(await auditShown(page, 'update prompt on /video')));
    assert.deepEqual(found, [], `axe found serious or critical violations:\n${found.join('\n')}`);
  },
);
