// Login throttling: per account with a growing delay, per client address, never for ever;
// parallel guesses counted like sequential ones; password hashing capped; TRUST_PROXY.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashSlots } from '../../server/src/auth/hash-slots.ts';
import { LOGIN_ACCOUNT_FAILURES, LOGIN_IP_FAILURES } from '../../server/src/limits.ts';
import { recordEvent } from '../../server/src/repositories/throttle.ts';
import { callFrom, type AddressedAnswer } from '../support/call-from.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let offset = 0;
const realNow = Date.now;

/** A login sent from a chosen loopback address. */
function loginFrom(
  localAddress: string,
  email: string,
  password: string,
  opts: { to?: TestServer; headers?: Record<string, string> } = {},
): Promise<AddressedAnswer> {
  return callFrom(opts.to ?? server, localAddress, 'POST', '/api/login', {
    body: { email, password },
    ...(opts.headers ? { headers: opts.headers } : {}),
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

const statuses = (answers: AddressedAnswer[]): number[] => answers.map((a) => a.status).sort();

describe('parallel guesses', () => {
  it('counts each try before its password is checked: 20 at once get 5 checks, not 20', async () => {
    // From 20 addresses, so that no per-address limit is what stops them.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        loginFrom(`127.0.1.${i + 1}`, 'dave@example.com', `Wrong${i}xyz`),
      ),
    );
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBe(LOGIN_ACCOUNT_FAILURES);
    expect(statuses(answers).filter((s) => s !== 401)).toEqual(
      Array(20 - LOGIN_ACCOUNT_FAILURES).fill(429),
    );
  });

  it('counts wrong current passwords before the check too (change password)', async () => {
    await server.createUser({ email: 'erin@example.com', password: 'Erin12345' });
    const token = await server.login('erin@example.com', 'Erin12345');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        callFrom(server, `127.0.2.${i + 1}`, 'POST', '/api/change-password', {
          token,
          body: {
            current_password: `Wrong${i}xyz`,
            new_password: 'Next12345',
            confirmation_password: 'Next12345',
          },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 400)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
  });
});

describe('password hashing is capped', () => {
  /** Holds n hashing slots for an address until the answered function is called. */
  function holdSlots(address: string, n: number): () => Promise<void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = Array.from({ length: n }, () =>
      hashSlots.admit(address, (hashing) => hashing(() => released)),
    );
    return async () => {
      release();
      await Promise.all(held);
    };
  }

  it('refuses an address with too many logins in flight at once, not the others', async () => {
    const release = holdSlots('127.0.0.7', hashSlots.limits.perNetwork);
    try {
      const busy = await loginFrom('127.0.0.7', 'carol@example.com', 'Carol1234');
      expect(busy.status).toBe(429);
      expect(busy.retryAfter).toBe('1');
      expect(busy.body.detail).toMatch(/try again/);
      // Another address waits its turn in the queue and is answered once hashing moves on.
      const other = loginFrom('127.0.0.8', 'carol@example.com', 'Carol1234');
      await release();
      expect((await other).status).toBe(200);
    } finally {
      await release();
    }
  });

  it('refuses everyone at once when the queue is full, and the refusal does not count', async () => {
    const { running, queued } = hashSlots.limits;
    const releases = Array.from({ length: running + queued }, (_, i) =>
      holdSlots(`10.0.0.${i + 1}`, 1),
    );
    const releaseAll = () => Promise.all(releases.map((r) => r()));
    try {
      for (let i = 0; i < LOGIN_ACCOUNT_FAILURES + 1; i++) {
        expect((await loginFrom('127.0.0.11', 'carol@example.com', 'wrong')).status).toBe(429);
      }
      await releaseAll();
      // None of the refused tries was counted against the account or the address.
      expect((await loginFrom('127.0.0.11', 'carol@example.com', 'Carol1234')).status).toBe(200);
    } finally {
      await releaseAll();
    }
  });
});
