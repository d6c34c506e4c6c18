// One user journey = one node:test test with its own browser context; on failure the page is
// saved as a screenshot in test-results/ so a red CI run shows what the user saw.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { E2eApp } from './app.ts';
import { RESULTS_DIR, ROOT } from './paths.ts';

/**
 * Playwright waits (locator.waitFor, waitForURL) and page loads use these unless told otherwise:
 * generous, because a loaded 2-core machine can take seconds to start the app, and a wait only
 * lasts this long when the journey is failing anyway.
 */
export const STEP_TIMEOUT_MS = 30_000;
export const NAVIGATION_TIMEOUT_MS = 60_000;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

export function journey(
  name: string,
  app: () => E2eApp,
  body: (page: Page) => Promise<void>,
  opts: { locale?: string; timeoutMs?: number } = {},
): void {
  void test(name, { timeout: opts.timeoutMs ?? 120_000 }, async () => {
    const page = await app().newPage(opts.locale ? { locale: opts.locale } : {});
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    const consoleErrors: string[] = [];
    page.on('pageerror', (err) => consoleErrors.push(String(err)));
    try {
      await body(page);
    } catch (err) {
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, `${slug(name)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      const where = `page ${page.url()}; screenshot ${path.relative(ROOT, file)}`;
      const errors = consoleErrors.length ? `; page errors: ${consoleErrors.join(' | ')}` : '';
      // The runner prints the stack, which already holds the original message: extend both.
      if (err instanceof Error) {
        const note = `\n    (${where}${errors})`;
        err.stack = err.stack?.replace(err.message, err.message + note);
        err.message += note;
      }
      throw err;
    } finally {
      await page.context().close();
    }
  });
}
