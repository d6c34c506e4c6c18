// The few steps several journeys share, written against accessible names as a user sees them.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { STEP_TIMEOUT_MS } from './journey.ts';
import { ROOT } from './paths.ts';

export type Messages = Record<string, string>;

export function messages(lang: 'en' | 'ja'): Messages {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'lang', `${lang}.json`), 'utf8')) as Messages;
}

/** Path and query of the page, for asserting where the app went. */
export function where(page: Page): string {
  const u = new URL(page.url());
  return u.pathname + u.search;
}

export async function logIn(page: Page, email: string, password: string, m = messages('en')) {
  await page.getByLabel(m['login.email']!, { exact: true }).fill(email);
  await page.getByLabel(m['login.password']!, { exact: true }).fill(password);
  await page.getByRole('button', { name: m['login.submit']!, exact: true }).click();
}

/** Waits until the path (and query, when given) is the expected one. */
export async function waitForPath(page: Page, pathAndQuery: string): Promise<void> {
  await page.waitForURL((u) => u.pathname + u.search === pathAndQuery);
}

/**
 * Waits until an asynchronous page expression (caches, IndexedDB) resolves truthy. Playwright's
 * waitForFunction takes the promise itself as truthy and would not wait at all.
 */
export async function waitForAsync(page: Page, expression: string, what: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
