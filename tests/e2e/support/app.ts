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
import { copyMigratedDatabase } from '../../support/test-db.ts';

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

/** A DATA_DIR with its database already made (tests/support/test-db.ts). */
async function makeDataDir(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-e2e-'));
  await copyMigratedDatabase(dir);
  return dir;
}

/**
 * The server alone, as `npm start` runs it (DATA_DIR on disk, the web build served), on a given
 * port so a bench can stop it and start it again at the same address with the same data.
 * `worker: 'off'` leaves uploaded videos unanalysed.
 */
export function startE2eServer(opts: {
  port: number;
  dataDir: string;
  webRoot: string;
  worker?: 'inline' | 'off';
}): Promise<Running> {
  const url = `http://127.0.0.1:${opts.port}`;
  const config = loadConfig({
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    PUBLIC_URL: url,
    WEB_ROOT: opts.webRoot,
    WORKER: opts.worker ?? 'inline',
    LOG_LEVEL: 'warn',
  });
  return startServer(config, { logger: false });
}

/** Makes an account directly in the database of a running server; answers its id. */
export async function createAccount(
  running: Running,
  o: { email: string; password: string; team?: string; mustChangePassword?: boolean },
): Promise<string> {
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
}

/**
 * Starts server and browser; `dataDir` lets a spec prepare the directory first (admin command),
 * `webRoot` serves another build (a copy a spec may change, or a bench's own build), `worker: 'off'`
 * leaves uploads unanalysed (a bench of the uploads alone).
 */
export async function startApp(
  opts: { dataDir?: string; webRoot?: string; worker?: 'inline' | 'off' } = {},
): Promise<E2eApp> {
  const webRoot = opts.webRoot ?? WEB_ROOT;
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) {
    throw new Error(`No web build in ${WEB_ROOT}: run the specs with "npm run test:e2e".`);
  }
  const dataDir = opts.dataDir ?? (await makeDataDir());
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = await startE2eServer({
    port,
    dataDir,
    webRoot,
    ...(opts.worker ? { worker: opts.worker } : {}),
  });
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
    createUser: (o) => createAccount(running, o),
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
