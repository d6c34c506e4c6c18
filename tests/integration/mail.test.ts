// E-mail delivery: over SMTP to a real SMTP server when SMTP_URL is set, else as .eml files in
// DATA_DIR/outbox; in the user's language.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractResetToken, outboxFiles, waitForMessage } from '../support/outbox.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';

describe('SMTP_URL set', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startTestSmtp({ delayMs: 1500 });
    server = await startTestServer({ SMTP_URL: smtp.url });
    const id = await server.createUser({ email: 'kenji@example.jp', password: 'Kenji1234' });
    await server.ctx.db.query("UPDATE users SET language = 'ja' WHERE id = $1", [id]);
  }, 180_000); // starting a server takes long on a busy machine
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('sends the reset link over SMTP in Japanese without making the answer wait', async () => {
    const start = performance.now();
    const res = await server.call('POST', '/api/forgot-password', {
      body: { email: 'kenji@example.jp' },
    });
    const elapsed = performance.now() - start;
    expect(res.status).toBe(200);
    // The mail server takes 1.5 s to accept; the answer did not wait for it.
    expect(elapsed).toBeLessThan(1000);
    const mail = await smtp.waitFor(1);
    expect(mail.envelopeTo).toEqual(['kenji@example.jp']);
    expect(mail.envelopeFrom).toBe('no-reply@localhost');
    expect(mail.subject).toContain('パスワード再設定');
    expect(mail.text).toContain('新しいパスワードを設定してください');
    const token = extractResetToken(mail.text);
    const reset = await server.call('POST', '/api/reset-password', {
      body: { password: 'Kenji5678', confirmationPassword: 'Kenji5678', resetToken: token },
    });
    expect(reset.status).toBe(200);
    expect(outboxFiles(server.dataDir)).toEqual([]);
  });
});

describe('SMTP_URL unset: the outbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.createUser({ email: 'lena@example.com', password: 'Lena12345' });
  }, 180_000); // starting a server takes long on a busy machine
  afterAll(() => server.close());

  it('writes one RFC 5322 message per mail, named in time order, readable only by the owner', async () => {
    await server.call('POST', '/api/forgot-password', { body: { email: 'lena@example.com' } });
    const first = await waitForMessage(server.dataDir, { to: 'lena@example.com' });
    await server.call('POST', '/api/forgot-password', { body: { email: 'lena@example.com' } });
    const second = await waitForMessage(server.dataDir, { to: 'lena@example.com', after: 1 });
    const files = outboxFiles(server.dataDir);
    expect(files).toEqual([first.file, second.file]);
    for (const file of files) {
      expect(path.basename(file)).toMatch(
        /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d{6}-[0-9a-f]{6}\.eml$/,
      );
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    }
    for (const header of ['from', 'to', 'subject', 'date', 'message-id', 'mime-version']) {
      expect(first.headers[header]).toBeTruthy();
    }
    expect(first.headers['content-type']).toMatch(/text\/plain; charset=utf-8/);
    expect(first.subject).toBe('Video Archive: reset your password');
    expect(first.text).toContain('expires in 60 minutes');
    expect(extractResetToken(first.text)).not.toBe(extractResetToken(second.text));
  });
});
