// The JavaScript a first screen needs (issue 29): every script Chromium fetched to start it, until
// the network went quiet, gzipped at level 9 (1 kB = 1000 B). The screens are prerendered, so they
// show before any script: this counts what makes them work. first-screens.spec.ts holds it to the
// budget; `npm run bench -- bundle` prints it beside the figure from Vite's manifest.
import zlib from 'node:zlib';
import type { Page, Response } from 'playwright-core';

/** Issue 29 lowered it from 150 to 100 kB (docs/decisions/first-screen-budget.md). */
export const FIRST_SCREEN_JS_BUDGET_BYTES = 100_000;

/** Opens `url` in `page` and sums the gzipped size of the scripts fetched until network idle. */
export async function firstScreenScriptBytes(page: Page, url: string): Promise<number> {
  const bodies = new Map<string, Promise<Buffer>>();
  const onResponse = (res: Response): void => {
    if (res.request().resourceType() === 'script' && !bodies.has(res.url()))
      bodies.set(res.url(), res.body());
  };
  page.on('response', onResponse);
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
  } finally {
    page.off('response', onResponse);
  }
  const scripts = await Promise.all(bodies.values());
  return scripts.reduce((sum, body) => sum + zlib.gzipSync(body, { level: 9 }).length, 0);
}
