// The real product for a browser: the server started in-process (so a spec can reach its
// database), with a DATA_DIR on disk like `npm start`, serving the built web app.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../../server/src/auth/passwords.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { findOrCreateTeam, insertUser } from '../../../server/src/repositories/users.ts';
import { startServer, type Running } from '../../../server/src/server.ts';
import { launchBrowser, policyViolations } from './browser.ts';
import { WEB_ROOT } from './paths.ts';
import { freePort } from '../../support/free-port.ts';

export interface E2eApp {
  url: string;
  dataDir: string;
  running: Running;
  browser: Browser;
  /** A fresh browser context (empty storage) with one page, English browser language. */
  newPage(opts?: { locale?: string }): Promise<Page>;
  /** Makes an account directly in the database of the running server. */
  createUser(opts: {
    email: string;
    password: string;
    team?: string;
    mustChangePassword?: boolean;
  }): Promise<string>;
  close(): Promise<void>;
}

export function makeDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'va-e2e-'));
}

/**
 * Starts server and browser; `dataDir` lets a spec prepare the directory first (admin command),
 * `webRoot` serves another build (a copy a spec may change, or a bench's own build).
 */
export async function startApp(opts: { dataDir?: string; webRoot?: string } = {}): Promise<E2eApp> {
  const webRoot = opts.webRoot ?? WEB_ROOT;
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) {
    throw new Error(`No web build in ${WEB_ROOT}: run the specs with "npm run test:e2e".`);
  }
  const dataDir = opts.dataDir ?? makeDataDir();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    WEB_ROOT: webRoot,
    WORKER: 'inline',
    LOG_LEVEL: 'warn',
  });
  const running = await startServer(config, { logger: false });
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];

  return {
    url,
    dataDir,
    running,
    browser,
    async newPage({ locale = 'en-US' } = {}) {
      const context = await browser.newContext({ locale, baseURL: url });
      contexts.push(context);
      return context.newPage();
    },
    async createUser(o) {
      const db = running.ctx.db;
      const teamId = await findOrCreateTeam(db, o.team ?? 'E2E team');
      return insertUser(db, {
        teamId,
        email: o.email,
        fullName: 'E2E User',
        username: o.email.split('@')[0]!,
        passwordHash: await hashPassword(o.password),
        isTeamAdmin: false,
        mustChangePassword: o.mustChangePassword ?? false,
      });
    },
    async close() {
      await Promise.allSettled(contexts.map((c) => c.close()));
      await browser.close().catch(() => undefined);
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const blocked = policyViolations(browser);
      if (blocked.length > 0) {
        throw new Error(`Content-Security-Policy violations:\n${blocked.join('\n')}`);
      }
    },
  };
}
