// Debian's Chromium driven by playwright-core: no browser download, ever.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Flags for a closed network and a root user: without the background-networking ones Chromium
 * keeps trying to reach Google's hosts; --no-sandbox because CI runs as root.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export function assertChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. End-to-end tests need Debian's Chromium: ` +
        'run `apt-get install -y chromium` (.ci/run does this), or set CHROMIUM_PATH.',
    );
  }
}

/** A headless Chromium with a fresh temporary profile (Playwright's default). */
export async function launchBrowser(): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
