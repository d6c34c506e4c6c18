// Debian's Chromium driven by playwright-core: no browser download, ever.
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage } from 'playwright-core';

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

// Chromium's console text for anything the Content-Security-Policy blocked, in a page, a worker
// or the service worker ("Refused to load the script …", "… violates the following Content
// Security Policy directive …"), and the page-side event the init script below reports.
const POLICY_MESSAGE = /Content[- ]Security[- ]Policy|^Refused to /i;
const violations = new WeakMap<Browser, string[]>();

/** Every Content-Security-Policy violation seen so far in any context of this browser. */
export function policyViolations(browser: Browser): readonly string[] {
  return violations.get(browser) ?? [];
}

function watchPolicy(context: BrowserContext, seen: string[]): void {
  const record = (where: string) => (msg: ConsoleMessage) => {
    if (POLICY_MESSAGE.test(msg.text())) seen.push(`${where}: ${msg.text()}`);
  };
  context.on('console', (msg) => record(msg.page()?.url() ?? 'page')(msg));
  context.on('page', (page) => page.on('worker', (w) => w.on('console', record(w.url()))));
  context.on('serviceworker', (w) => w.on('console', record(w.url())));
  void context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content-Security-Policy: ${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
}

/**
 * A headless Chromium with a fresh temporary profile (Playwright's default). Each context it
 * makes records the policy violations of its pages and workers (policyViolations), so the
 * journeys run under the server's real security headers and fail on anything they block.
 */
export async function launchBrowser(): Promise<Browser> {
  assertChromium();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const seen: string[] = [];
  violations.set(browser, seen);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchPolicy(context, seen);
    return context;
  };
  return browser;
}
