// Mail survives a crash: the server runs as a real child process (`npm start`'s script, the
// embedded database on disk), a mail is asked for, the process is killed with SIGKILL before the
// mail has left, and after a restart the mail is delivered and its link or code works.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../support/admin-cli.ts';
import { freePort } from '../support/free-port.ts';
import { extractCode, extractResetToken, waitForMessage } from '../support/outbox.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const EMAIL = 'crash@example.com';
const PASSWORD = 'Initial123';

let dataDir: string;
let child: ChildProcess | undefined;
let url = '';
const smtps: TestSmtp[] = [];

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    WEB_ROOT: path.join(dataDir, 'no-web'),
    SKIP_WEB_BUILD: '1',
    DATABASE_URL: '',
    SMTP_URL: '',
    WORKER: 'inline',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Starts the server process and waits until it answers. */
async function start(extra: Record<string, string> = {}): Promise<void> {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'server/bin/start.ts'], {
    cwd: root,
    env: env({ PORT: String(port), ...extra }),
    stdio: 'ignore',
  });
  // Starting takes long on a loaded machine (two starts per test).
  const deadline = Date.now() + 240_000;
  for (;;) {
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function kill(): Promise<void> {
  const proc = child!;
  child = undefined;
  const gone = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await gone;
}

async function call(method: string, urlPath: string, body?: unknown, token?: string) {
  const res = await fetch(url + urlPath, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-mail-crash-'));
  // The provider makes the account with the admin command, as OPERATIONS.md says.
  const made = await runAdmin(
    env({}),
    ...['create-user', '--email', EMAIL, '--team', 'Crash', '--password', PASSWORD],
  );
  expect(made.code, made.stderr).toBe(0);
}, 300_000);

afterEach(async () => {
  if (child) await kill();
  await Promise.all(smtps.splice(0).map((s) => s.close()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a server killed before a mail has left', () => {
  it('sends the reset link after a restart, over SMTP, and the link works', async () => {
    // A mail server that takes the message but never confirms it: the send is in flight.
    const stuck = await startTestSmtp({ delayMs: 600_000 });
    smtps.push(stuck);
    await start({ SMTP_URL: stuck.url });
    const asked = await call('POST', '/api/forgot-password', { email: EMAIL });
    expect(asked.status).toBe(200);
    const inFlight = await stuck.waitFor(1, 60_000);
    await kill();

    const working = await startTestSmtp();
    smtps.push(working);
    await start({ SMTP_URL: working.url });
    const mail = await working.waitFor(1, 60_000);
    expect(mail.envelopeTo).toEqual([EMAIL]);
    const token = extractResetToken(mail.text);
    expect(token).toBe(extractResetToken(inFlight.text));
    const reset = await call('POST', '/api/reset-password', {
      password: 'Changed123',
      confirmationPassword: 'Changed123',
      resetToken: token,
    });
    expect(reset.status).toBe(200);
    expect(
      (await call('POST', '/api/login', { email: EMAIL, password: 'Changed123' })).status,
    ).toBe(200);
  }, 600_000);

  it('writes the e-mail change code to the outbox folder after a restart, and the code works', async () => {
    await start();
    const login = await call('POST', '/api/login', { email: EMAIL, password: PASSWORD });
    let token = String(login.body.access_token);
    const changed = await call(
      'POST',
      '/api/change-password',
      { current_password: PASSWORD, new_password: 'Second123', confirmation_password: 'Second123' },
      token,
    );
    expect(changed.status).toBe(200);
    token = String(
      (await call('POST', '/api/login', { email: EMAIL, password: 'Second123' })).body.access_token,
    );
    // The outbox folder cannot be written (a file stands in its place): the mail waits, retried.
    fs.writeFileSync(path.join(dataDir, 'outbox'), 'not a folder');
    const asked = await call(
      'POST',
      '/api/users/change-email-request',
      { current_password: 'Second123', new_email: 'moved@example.com', language: 'en' },
      token,
    );
    expect(asked.status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    await kill();

    fs.rmSync(path.join(dataDir, 'outbox'));
    await start();
    const mail = await waitForMessage(dataDir, { to: 'moved@example.com', timeoutMs: 60_000 });
    const verified = await call(
      'POST',
      '/api/users/change-email-verify-otp',
      { otp: extractCode(mail.text), new_email: 'moved@example.com', language: 'en' },
      String(
        (await call('POST', '/api/login', { email: EMAIL, password: 'Second123' })).body
          .access_token,
      ),
    );
    expect(verified.status).toBe(200);
    expect(verified.body.email).toBe('moved@example.com');
  }, 600_000);
});
