// Forgot and reset password through the outbox: same answer for known and unknown e-mails,
// single-use tokens that expire after an hour, sessions revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '../../server/src/routes/auth/index.ts';
import {
  countMessages,
  extractLink,
  extractResetToken,
  waitForMessage,
} from '../support/outbox.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
const realNow = Date.now;

async function requestReset(email: string): Promise<string> {
  const before = countMessages(server.dataDir, email);
  const res = await server.call('POST', '/api/forgot-password', { body: { email } });
  expect(res.status).toBe(200);
  const message = await waitForMessage(server.dataDir, { to: email, after: before });
  return extractResetToken(message.text);
}

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({ email: 'erin@example.com', password: 'Erin12345' });
  await server.createUser({ email: 'hank@example.com', password: 'Hank12345' });
  await server.createUser({ email: 'ivan@example.com', password: 'Ivan12345' });
}, 180_000); // starting a server takes long on a busy machine
afterAll(() => server.close());

describe('POST /api/forgot-password', () => {
  it('answers known and unknown e-mails identically and mails only the known one', async () => {
    const known = await server.call('POST', '/api/forgot-password', {
      body: { email: 'erin@example.com' },
    });
    const unknown = await server.call('POST', '/api/forgot-password', {
      body: { email: 'nobody@example.com' },
    });
    expect(known).toEqual(unknown);
    expect(known).toEqual({ status: 200, body: { detail: FORGOT_PASSWORD_ANSWER } });
    const message = await waitForMessage(server.dataDir, { to: 'erin@example.com' });
    const link = extractLink(message.text, '/reset-password');
    expect(link.startsWith(`${server.url}/reset-password?resetToken=`)).toBe(true);
    expect(message.subject).toMatch(/reset your password/);
    await new Promise((r) => setTimeout(r, 200));
    expect(countMessages(server.dataDir, 'nobody@example.com')).toBe(0);
  });

  it('answers before it looks the account up or sends anything, so the timing tells nothing', async () => {
    await server.createUser({ email: 'gail@example.com', password: 'Gail12345' });
    const before = countMessages(server.dataDir, 'gail@example.com');
    const ask = (email: string) => server.call('POST', '/api/forgot-password', { body: { email } });
    const answers = await Promise.all([ask('gail@example.com'), ask('nobody-else@example.com')]);
    expect(answers[0]).toEqual({ status: 200, body: { detail: FORGOT_PASSWORD_ANSWER } });
    expect(answers[1]).toEqual(answers[0]);
    // The answer did the same for both: one queued job with the address, durable before the
    // answer (a crash after it still sends the link); the account is looked up by the job.
    const jobs = await server.ctx.db.query<{ payload: Record<string, string> }>(
      `SELECT payload FROM jobs WHERE name = 'send-reset-link'
       AND payload->>'email' IN ('gail@example.com', 'nobody-else@example.com')`,
    );
    expect(jobs.map((j) => Object.keys(j.payload).sort())).toEqual([['email'], ['email']]);
    // The work happens after the answer: the known account gets its mail, the unknown none.
    await waitForMessage(server.dataDir, { to: 'gail@example.com', after: before });
    expect(countMessages(server.dataDir, 'nobody-else@example.com')).toBe(0);
  });

  it('rejects an invalid e-mail with a list detail', async () => {
    const res = await server.call('POST', '/api/forgot-password', { body: { email: 'nope' } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'email']);
  });
});

describe('POST /api/reset-password', () => {
  it('sets the password once per token, revokes sessions and clears the initial-password flag', async () => {
    await server.createUser({
      email: 'frank@example.com',
      password: 'Frank1234',
      mustChangePassword: true,
    });
    const session = await server.login('frank@example.com', 'Frank1234');
    const token = await requestReset('frank@example.com');
    const res = await server.call('POST', '/api/reset-password', {
      body: { password: 'Frank5678', confirmationPassword: 'Frank5678', resetToken: token },
    });
    expect(res.status).toBe(200);
    expect((await server.call('GET', '/api/profile', { token: session })).status).toBe(401);
    const login = await server.call('POST', '/api/login', {
      body: { email: 'frank@example.com', password: 'Frank5678' },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.must_change_password).toBe(false);

    const again = await server.call('POST', '/api/reset-password', {
      body: { password: 'Frank9999', confirmationPassword: 'Frank9999', resetToken: token },
    });
    expect(again.status).toBe(401);
    expect(again.body.detail).toBeTypeOf('string');
  });

  it('a password change ends the links sent before it', async () => {
    await server.createUser({ email: 'jill@example.com', password: 'Jill12345' });
    const session = await server.login('jill@example.com', 'Jill12345');
    const token = await requestReset('jill@example.com');
    const changed = await server.call('POST', '/api/change-password', {
      token: session,
      body: {
        current_password: 'Jill12345',
        new_password: 'Jill67890',
        confirmation_password: 'Jill67890',
      },
    });
    expect(changed.status).toBe(200);
    const res = await server.call('POST', '/api/reset-password', {
      body: { password: 'Stolen123', confirmationPassword: 'Stolen123', resetToken: token },
    });
    expect(res.status).toBe(401);
    await server.login('jill@example.com', 'Jill67890');
  });

  it('accepts snake_case names too', async () => {
    const token = await requestReset('erin@example.com');
    const res = await server.call('POST', '/api/reset-password', {
      body: { password: 'Erin67890', confirmation_password: 'Erin67890', reset_token: token },
    });
    expect(res.status).toBe(200);
    await server.login('erin@example.com', 'Erin67890');
  });

  it('refuses an expired token with 401', async () => {
    const token = await requestReset('hank@example.com');
    try {
      server.ctx.now = () => realNow() + 3600e3 + 1000;
      const res = await server.call('POST', '/api/reset-password', {
        body: { password: 'Erin11111', confirmationPassword: 'Erin11111', resetToken: token },
      });
      expect(res.status).toBe(401);
    } finally {
      server.ctx.now = realNow;
    }
    await server.login('hank@example.com', 'Hank12345');
  });

  it('refuses unknown or missing tokens with 401 and weak passwords with the spec texts', async () => {
    const unknown = await server.call('POST', '/api/reset-password', {
      body: { password: 'Good12345', confirmationPassword: 'Good12345', resetToken: 'abc' },
    });
    expect(unknown.status).toBe(401);
    const missing = await server.call('POST', '/api/reset-password', {
      body: { password: 'Good12345', confirmationPassword: 'Good12345' },
    });
    expect(missing.status).toBe(401);
    const token = await requestReset('ivan@example.com');
    const weak = await server.call('POST', '/api/reset-password', {
      body: { password: 'short', confirmationPassword: 'short', resetToken: token },
    });
    expect(weak).toEqual({ status: 422, body: { detail: 'Please enter at least 8 characters' } });
    const mismatch = await server.call('POST', '/api/reset-password', {
      body: { password: 'Good12345', confirmationPassword: 'Good12346', resetToken: token },
    });
    expect(mismatch.body.detail).toBe('Passwords do not match');
    // A refused attempt does not use the token up.
    const ok = await server.call('POST', '/api/reset-password', {
      body: { password: 'Good12345', confirmationPassword: 'Good12345', resetToken: token },
    });
    expect(ok.status).toBe(200);
  });
});

describe('the language of the reset mail', () => {
  it("is the app's language at the last sign-in, or the one the request is made in", async () => {
    await server.createUser({ email: 'yuki@example.com', password: 'Yuki12345' });
    const login = await server.call('POST', '/api/login', {
      body: { email: 'yuki@example.com', password: 'Yuki12345' },
      headers: { 'accept-language': 'ja' },
    });
    expect(login.body.user.language).toBe('ja');
    const token = login.body.access_token as string;
    expect((await server.call('GET', '/api/profile', { token })).body.language).toBe('ja');

    // Asked without a language (not from the app): the user's own.
    let before = countMessages(server.dataDir, 'yuki@example.com');
    await server.call('POST', '/api/forgot-password', { body: { email: 'yuki@example.com' } });
    const japanese = await waitForMessage(server.dataDir, {
      to: 'yuki@example.com',
      after: before,
    });
    expect(japanese.subject).toContain('パスワード再設定');
    expect(japanese.text).toContain('新しいパスワードを設定してください');

    // Asked from the app in English: English.
    before = countMessages(server.dataDir, 'yuki@example.com');
    await server.call('POST', '/api/forgot-password', {
      body: { email: 'yuki@example.com' },
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    const english = await waitForMessage(server.dataDir, { to: 'yuki@example.com', after: before });
    expect(english.subject).toBe('Video Archive: reset your password');

    // A refresh from the app in English makes English the user's language again.
    const refreshed = await server.call('GET', '/api/refresh', {
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(refreshed.body.user.language).toBe('en');
    // Other languages change nothing.
    const other = await server.call('POST', '/api/login', {
      body: { email: 'yuki@example.com', password: 'Yuki12345' },
      headers: { 'accept-language': 'fr-FR' },
    });
    expect(other.body.user.language).toBe('en');
  });
});

describe('reset mails per account', () => {
  it('sends at most 3 links per 15 minutes, silently, then again later', async () => {
    await server.createUser({ email: 'judy@example.com', password: 'Judy12345' });
    for (let i = 0; i < 3; i++) await requestReset('judy@example.com');
    const res = await server.call('POST', '/api/forgot-password', {
      body: { email: 'judy@example.com' },
    });
    expect(res.body.detail).toBe(FORGOT_PASSWORD_ANSWER);
    await new Promise((r) => setTimeout(r, 300));
    expect(countMessages(server.dataDir, 'judy@example.com')).toBe(3);
    try {
      server.ctx.now = () => realNow() + 16 * 60e3;
      await requestReset('judy@example.com');
    } finally {
      server.ctx.now = realNow;
    }
  });
});
