// Changing the e-mail with a one-time code read from the outbox, and every way it can fail.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CODE_SENT } from '../../server/src/routes/users/index.ts';
import {
  countMessages,
  extractCode,
  extractResetToken,
  waitForMessage,
} from '../support/outbox.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let offset = 0;
const realNow = Date.now;
let n = 0;

/** A fresh signed-in user per test, so the resend limits of one do not reach the next. */
async function freshUser(): Promise<{ email: string; token: string }> {
  n += 1;
  const email = `user${n}@example.com`;
  await server.createUser({ email, password: 'Passw0rd1', team: 'Mail' });
  return { email, token: await server.login(email, 'Passw0rd1') };
}

async function request(token: string, newEmail: string, language = 'en') {
  return server.call('POST', '/api/users/change-email-request', {
    token,
    body: { current_password: 'Passw0rd1', new_email: newEmail, language },
  });
}

async function codeFor(newEmail: string, after = 0): Promise<string> {
  const message = await waitForMessage(server.dataDir, { to: newEmail, after });
  return extractCode(message.text);
}

function verify(token: string, newEmail: string, otp: string, language = 'en') {
  return server.call('POST', '/api/users/change-email-verify-otp', {
    token,
    body: { otp, new_email: newEmail, language },
  });
}

function wrongCode(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

beforeAll(async () => {
  server = await startTestServer();
  server.ctx.now = () => realNow() + offset;
  await server.createUser({ email: 'taken@example.com', password: 'Passw0rd1', team: 'Other' });
}, 180_000); // starting a server takes long on a busy machine
beforeEach(() => {
  offset += 2 * 3600e3;
});
afterAll(() => server.close());

describe('e-mail change', () => {
  it('sends a 6-digit code to the new address, changes the e-mail and tells the old address', async () => {
    const { email, token } = await freshUser();
    const res = await request(token, 'New.Address@example.com', 'ja');
    expect(res.status).toBe(200);
    const message = await waitForMessage(server.dataDir, { to: 'New.Address@example.com' });
    expect(message.subject).toContain('確認コード');
    expect(message.text).toContain('有効期限は10分');
    const code = extractCode(message.text);
    expect(code).toMatch(/^\d{6}$/);

    const done = await verify(token, 'new.address@example.com', code, 'ja');
    expect(done.status).toBe(200);
    expect(done.body.email).toBe('New.Address@example.com');
    expect((await server.call('GET', '/api/profile', { token })).body.email).toBe(
      'New.Address@example.com',
    );
    const notice = await waitForMessage(server.dataDir, { to: email });
    expect(notice.subject).toContain('メールアドレスが変更されました');
    expect(notice.text).toContain('New.Address@example.com');
    // Signing in works with the new address only.
    await server.login('new.address@example.com', 'Passw0rd1');
    await expect(server.login(email, 'Passw0rd1')).rejects.toThrow(/401/);
    // The code is used up.
    expect((await verify(token, 'New.Address@example.com', code)).status).toBe(400);
  });

  it('checks the current password (400, not a sign-out status) and the address', async () => {
    const { email, token } = await freshUser();
    const wrong = await server.call('POST', '/api/users/change-email-request', {
      token,
      body: { current_password: 'Wrong1234', new_email: 'x1@example.com', language: 'en' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/current password/);
    const invalid = await request(token, 'not-an-email');
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(['body', 'new_email']);
    expect(invalid.body.detail[0].msg).toMatch(/^new_email /);
    const same = await request(token, email.toUpperCase());
    expect(same.status).toBe(422);
  });

  it('answers an address in use like a free one, and sends it nothing', async () => {
    const { token } = await freshUser();
    const free = await request(token, 'free-address@example.com');
    offset += 31e3;
    const taken = await request(token, 'TAKEN@example.com');
    expect(taken).toEqual(free);
    expect(taken).toEqual({ status: 200, body: { detail: CODE_SENT } });
    // Step 2 answers like a wrong code for a free address, so nothing tells them apart there.
    const res = await verify(token, 'taken@example.com', '123456');
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('The code is incorrect. 4 tries left.');
    await waitForMessage(server.dataDir, { to: 'free-address@example.com' });
    await new Promise((r) => setTimeout(r, 300));
    expect(countMessages(server.dataDir, 'taken@example.com')).toBe(0);
  });

  it('counts a request before answering: parallel requests send one code', async () => {
    const { token } = await freshUser();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => request(token, 'parallel@example.com')),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429, 429]);
    await waitForMessage(server.dataDir, { to: 'parallel@example.com' });
    await new Promise((r) => setTimeout(r, 300));
    expect(countMessages(server.dataDir, 'parallel@example.com')).toBe(1);
  });

  it('ends the other sessions and outstanding reset links, and keeps this one', async () => {
    const { email, token } = await freshUser();
    const other = await server.login(email, 'Passw0rd1');
    await server.call('POST', '/api/forgot-password', { body: { email } });
    const resetToken = extractResetToken(
      (await waitForMessage(server.dataDir, { to: email })).text,
    );
    await request(token, 'moved@example.com');
    const done = await verify(token, 'moved@example.com', await codeFor('moved@example.com'));
    expect(done.status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token })).status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token: other })).status).toBe(401);
    const reset = await server.call('POST', '/api/reset-password', {
      body: { resetToken, password: 'Taken0ver1', confirmationPassword: 'Taken0ver1' },
    });
    expect(reset.status).toBe(401);
    await server.login('moved@example.com', 'Passw0rd1');
  });

  it('answers clear errors for a wrong code and stops after 5 tries', async () => {
    const { token } = await freshUser();
    await request(token, 'tries@example.com');
    const code = await codeFor('tries@example.com');
    const bad = wrongCode(code);
    for (let left = 4; left >= 1; left--) {
      const res = await verify(token, 'tries@example.com', bad);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(
        `The code is incorrect. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
      );
    }
    const fifth = await verify(token, 'tries@example.com', bad);
    expect(fifth.body.detail).toBe('Too many incorrect codes. Please request a new code.');
    // Even the right code no longer works.
    const right = await verify(token, 'tries@example.com', code);
    expect(right.status).toBe(400);
    expect(right.body.detail).toBe('Too many incorrect codes. Please request a new code.');
  });

  it('gives 5 fresh tries with the new code after the tries ran out', async () => {
    const { token } = await freshUser();
    await request(token, 'again@example.com');
    const first = await codeFor('again@example.com');
    for (let i = 0; i < 5; i++) await verify(token, 'again@example.com', wrongCode(first));
    expect((await verify(token, 'again@example.com', first)).body.detail).toBe(
      'Too many incorrect codes. Please request a new code.',
    );
    offset += 31e3;
    expect((await request(token, 'again@example.com')).status).toBe(200);
    const second = await codeFor('again@example.com', 1);
    for (let left = 4; left >= 1; left--) {
      const res = await verify(token, 'again@example.com', wrongCode(second));
      expect(res.body.detail).toMatch(new RegExp(`^The code is incorrect. ${left} tr`));
    }
    // The fifth try of the new code, the right one, still counts.
    const done = await verify(token, 'again@example.com', second);
    expect(done.status).toBe(200);
    expect(done.body.email).toBe('again@example.com');
  });

  it('refuses the code when the address was taken after it was sent', async () => {
    const { email, token } = await freshUser();
    await request(token, 'race@example.com');
    const code = await codeFor('race@example.com');
    await server.createUser({ email: 'Race@example.com', password: 'Passw0rd1', team: 'Other' });
    const res = await verify(token, 'race@example.com', code);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].msg).toBe('new_email cannot be used. Please choose another address.');
    expect((await server.call('GET', '/api/profile', { token })).body.email).toBe(email);
  });

  it('expires a code after 10 minutes', async () => {
    const { token } = await freshUser();
    await request(token, 'late@example.com');
    const code = await codeFor('late@example.com');
    offset += 10 * 60e3 + 1000;
    const res = await verify(token, 'late@example.com', code);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('The code has expired. Please request a new code.');
  });

  it('refuses a code for another address than requested, or malformed codes', async () => {
    const { token } = await freshUser();
    await request(token, 'asked@example.com');
    const code = await codeFor('asked@example.com');
    const other = await verify(token, 'other@example.com', code);
    expect(other.status).toBe(400);
    expect(other.body.detail).toMatch(/no pending e-mail change/i);
    const short = await verify(token, 'asked@example.com', '123');
    expect(short.status).toBe(422);
    expect(short.body.detail[0].loc).toEqual(['body', 'otp']);
    const none = await verify(token, 'asked@example.com', '');
    expect(none.status).toBe(422);
  });

  it('rate limits resends (30 s apart, 5 an hour) and a resend replaces the old code', async () => {
    const user = await freshUser();
    let token = user.token;
    expect((await request(token, 'resend@example.com')).status).toBe(200);
    const first = await codeFor('resend@example.com');
    const soon = await request(token, 'resend@example.com');
    expect(soon.status).toBe(429);
    expect(soon.body.detail).toMatch(/try again in 1 minute/);
    offset += 31e3;
    expect((await request(token, 'resend@example.com')).status).toBe(200);
    const second = await codeFor('resend@example.com', 1);
    if (second !== first) {
      expect((await verify(token, 'resend@example.com', first)).body.detail).toMatch(/incorrect/);
    }
    for (let i = 0; i < 3; i++) {
      offset += 31e3;
      expect((await request(token, 'resend@example.com')).status).toBe(200);
    }
    offset += 31e3;
    const sixth = await request(token, 'resend@example.com');
    expect(sixth.status).toBe(429);
    // The first send leaves the hour window 155 s after it was made plus an hour.
    offset += 3600e3 - 150e3;
    token = (await server.call('GET', '/api/refresh', { token })).body.access_token as string;
    expect((await request(token, 'resend@example.com')).status).toBe(200);
    const latest = await codeFor('resend@example.com', 5);
    expect((await verify(token, 'resend@example.com', latest)).status).toBe(200);
  });
});
