// Login throttling: per account with a growing delay, per client address, never for ever.
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOGIN_IP_FAILURES } from '../../server/src/limits.ts';
import { recordEvent } from '../../server/src/repositories/throttle.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let offset = 0;
const realNow = Date.now;

/** A login sent from a chosen loopback address (the whole of 127/8 reaches the server). */
function loginFrom(
  localAddress: string,
  email: string,
  password: string,
): Promise<{ status: number; retryAfter: string | undefined; body: { detail?: unknown } }> {
  const { port } = new URL(server.url);
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: 'POST',
        path: '/api/login',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] as string | undefined,
            body: JSON.parse(text) as { detail?: unknown },
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function advance(ms: number): void {
  offset += ms;
}

beforeAll(async () => {
  server = await startTestServer();
  server.ctx.now = () => realNow() + offset;
  await server.createUser({ email: 'carol@example.com', password: 'Carol1234' });
  await server.createUser({ email: 'dave@example.com', password: 'Dave12345' });
}, 180_000); // starting a server takes long on a busy machine
beforeEach(async () => {
  // Each test starts after every earlier window has passed.
  advance(24 * 3600e3);
});
afterAll(() => server.close());

describe('per-account throttle', () => {
  it('after 5 failures answers 429 with Retry-After, with a delay that grows and ends', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await loginFrom('127.0.0.2', 'dave@example.com', 'wrong')).status).toBe(401);
    }
    const blocked = await loginFrom('127.0.0.2', 'dave@example.com', 'Dave12345');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(50);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(60);
    expect(blocked.body.detail).toMatch(/try again in 1 minute/);

    advance(61e3);
    expect((await loginFrom('127.0.0.2', 'dave@example.com', 'wrong')).status).toBe(401);
    const longer = await loginFrom('127.0.0.2', 'dave@example.com', 'wrong');
    expect(longer.status).toBe(429);
    expect(Number(longer.retryAfter)).toBeGreaterThan(110);
    expect(Number(longer.retryAfter)).toBeLessThanOrEqual(120);

    // The window expires: the right password works again, from anywhere.
    advance(15 * 60e3 + 1e3);
    expect((await loginFrom('127.0.0.2', 'dave@example.com', 'Dave12345')).status).toBe(200);
  });

  it('a successful login resets the account counter', async () => {
    for (let i = 0; i < 4; i++) await loginFrom('127.0.0.3', 'dave@example.com', 'wrong');
    expect((await loginFrom('127.0.0.3', 'dave@example.com', 'Dave12345')).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await loginFrom('127.0.0.3', 'dave@example.com', 'wrong')).status).toBe(401);
    }
  });

  it('an attacker elsewhere does not lock out the user on an address that signed in before', async () => {
    expect((await loginFrom('127.0.0.1', 'carol@example.com', 'Carol1234')).status).toBe(200);
    for (let i = 0; i < 6; i++) await loginFrom('127.0.0.9', 'carol@example.com', 'guess');
    expect((await loginFrom('127.0.0.9', 'carol@example.com', 'Carol1234')).status).toBe(429);
    // Another new address is locked too: the account is under attack.
    expect((await loginFrom('127.0.0.10', 'carol@example.com', 'Carol1234')).status).toBe(429);
    // The known address is not.
    expect((await loginFrom('127.0.0.1', 'carol@example.com', 'Carol1234')).status).toBe(200);
  });

  it('throttles unknown e-mails like known ones', async () => {
    for (let i = 0; i < 5; i++) await loginFrom('127.0.0.4', 'ghost@example.com', 'nope');
    expect((await loginFrom('127.0.0.4', 'ghost@example.com', 'nope')).status).toBe(429);
  });
});

describe('per-address throttle', () => {
  it('refuses an address with many failures across accounts, also for other accounts', async () => {
    const now = server.ctx.now();
    for (let i = 0; i < LOGIN_IP_FAILURES - 1; i++) {
      await recordEvent(server.ctx.db, {
        scope: 'login',
        key: `user${i}@example.com`,
        clientIp: '127.0.0.5',
        at: now - 1000,
      });
    }
    expect((await loginFrom('127.0.0.5', 'x@example.com', 'nope')).status).toBe(401);
    const blocked = await loginFrom('127.0.0.5', 'carol@example.com', 'Carol1234');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    // Other addresses are unaffected.
    expect((await loginFrom('127.0.0.6', 'carol@example.com', 'Carol1234')).status).toBe(200);
    advance(15 * 60e3 + 1e3);
    expect((await loginFrom('127.0.0.5', 'carol@example.com', 'Carol1234')).status).toBe(200);
  });
});
