// One user journey = one node:test test with its own browser context; on failure the page is
// saved as a screenshot in test-results/ so a red CI run shows what the user saw.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { E2eApp } from './app.ts';
import { RESULTS_DIR, ROOT } from './paths.ts';

/** Playwright waits (locator.waitFor, waitForURL) use this unless told otherwise. */
export const STEP_TIMEOUT_MS = 15_000;

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
  void test(name, { timeout: opts.timeoutMs ?? 90_000 }, async () => {
    const page = await app().newPage(opts.locale ? { locale: opts.locale } : {});
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
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
      if (err instanceof Error) err.message += `\n    (${where}${errors})`;
      throw err;
    } finally {
      await page.context().close();
    }
  });
}
