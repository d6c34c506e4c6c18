// TRUST_PROXY: behind a reverse proxy the throttles count each client's address (from
// X-Forwarded-For); without the setting the header is ignored, so a client cannot forge its way
// out of a throttle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_IP_FAILURES } from '../../server/src/limits.ts';
import { recordEvent } from '../../server/src/repositories/throttle.ts';
import { callFrom } from '../support/call-from.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let direct: TestServer;
let proxied: TestServer;

/** Fills an address's failed-login allowance, as if it had guessed at many accounts. */
async function exhaust(server: TestServer, clientIp: string): Promise<void> {
  for (let i = 0; i < LOGIN_IP_FAILURES; i++) {
    await recordEvent(server.ctx.db, {
      scope: 'login',
      key: `user${i}@example.com`,
      clientIp,
      at: server.ctx.now() - 1000,
    });
  }
}

function loginVia(server: TestServer, localAddress: string, forwardedFor: string) {
  return callFrom(server, localAddress, 'POST', '/api/login', {
    body: { email: 'nina@example.com', password: 'Wrong1234' },
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

beforeAll(async () => {
  // The proxy is this machine's loopback, as for nginx on the same host.
  [direct, proxied] = await Promise.all([
    startTestServer(),
    startTestServer({ TRUST_PROXY: '127.0.0.0/8' }),
  ]);
}, 180_000); // starting a server takes long on a busy machine
afterAll(() => Promise.all([direct.close(), proxied.close()]));

describe('TRUST_PROXY', () => {
  it('set: two clients behind the proxy are throttled separately', async () => {
    await exhaust(proxied, '203.0.113.5');
    const blocked = await loginVia(proxied, '127.0.4.1', '203.0.113.5');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    // The other client, through the same proxy, is not held up by the first one.
    expect((await loginVia(proxied, '127.0.4.1', '203.0.113.6')).status).toBe(401);
  });

  it('unset: X-Forwarded-For is ignored, so a forged one does not escape the throttle', async () => {
    await exhaust(direct, '127.0.4.2');
    const forged = await loginVia(direct, '127.0.4.2', '198.51.100.7');
    expect(forged.status).toBe(429);
    // A forged header cannot put another client under the throttle either.
    await exhaust(direct, '198.51.100.8');
    expect((await loginVia(direct, '127.0.4.3', '198.51.100.8')).status).toBe(401);
  });
});
