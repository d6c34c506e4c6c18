// What anonymous requests can still cost (issue 28 items 5 and 7): forgot password is throttled
// per e-mail address and per network with an answer that tells nothing, finished jobs (and the
// addresses they carry) are pruned, a flood of reset mails never holds up a signed-in user's
// code, and per-address limits count an IPv6 /64 as one client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkKey } from '../../server/src/auth/network-key.ts';
import { pruneJobsHandler } from '../../server/src/jobs/housekeeping.ts';
import { JobName } from '../../server/src/jobs/names.ts';
import { SCHEDULES } from '../../server/src/jobs/schedules.ts';
import type { JobRow } from '../../server/src/jobs/job-store.ts';
import {
  FORGOT_PER_ADDRESS,
  FORGOT_PER_NETWORK,
  JOB_RETENTION_MS,
  LOGIN_IP_FAILURES,
} from '../../server/src/limits.ts';
import { recordEvent } from '../../server/src/repositories/throttle.ts';
import { callFrom, type AddressedAnswer } from '../support/call-from.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';

const FORGOT_ANSWER = { status: 200, retryAfter: undefined };

/** Through the loopback "proxy", as the client `clientIp` (an IPv4 or IPv6 address). */
function forgotFrom(server: TestServer, clientIp: string, email: string): Promise<AddressedAnswer> {
  return callFrom(server, '127.0.0.1', 'POST', '/api/forgot-password', {
    body: { email },
    headers: { 'x-forwarded-for': clientIp },
  });
}

async function resetJobs(server: TestServer, email?: string): Promise<number> {
  const rows = await server.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE name = $1 AND ($2::text IS NULL OR payload->>'email' = $2)`,
    [JobName.SendResetLink, email ?? null],
  );
  return rows[0]!.n;
}

let smtp: TestSmtp;
let server: TestServer;
const FLOOD = 6;

beforeAll(async () => {
  // A slow mail server: each message takes 400 ms to be accepted.
  smtp = await startTestSmtp({ delayMs: 400 });
  server = await startTestServer({ SMTP_URL: smtp.url, TRUST_PROXY: '127.0.0.0/8' });
  for (let i = 0; i < FLOOD; i++) {
    await server.createUser({ email: `flood${i}@example.com`, password: 'Flood1234' });
  }
  await server.createUser({ email: 'mira@example.com', password: 'Mira12345' });
}, 180_000); // starting a server takes long on a busy machine
afterAll(async () => {
  await server.close();
  await smtp.close();
});

/** Waits until the workers have nothing queued or running. */
async function queueIdle(): Promise<void> {
  for (;;) {
    const live = await server.ctx.db.query(
      `SELECT id FROM jobs WHERE state IN ('queued', 'running') AND name = ANY($1::text[])`,
      [[JobName.SendResetLink, JobName.SendAnonymousMail, JobName.SendMail]],
    );
    if (live.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('forgot password, anonymous', () => {
  it('queues a few requests per e-mail address; the rest get the very same answer', async () => {
    const answers = [];
    for (let i = 0; i < FORGOT_PER_ADDRESS + 5; i++) {
      answers.push(await forgotFrom(server, `198.51.100.${i + 1}`, 'target@example.com'));
    }
    const first = answers[0]!;
    expect(first).toMatchObject(FORGOT_ANSWER);
    for (const a of answers) expect(a).toEqual(first);
    expect(await resetJobs(server, 'target@example.com')).toBe(FORGOT_PER_ADDRESS);
    // Another address is not held up by it.
    expect(await forgotFrom(server, '198.51.100.1', 'other@example.com')).toEqual(first);
    expect(await resetJobs(server, 'other@example.com')).toBe(1);
  });

  it('queues a few requests per network: a whole IPv6 /64 counts as one client', async () => {
    const before = await resetJobs(server);
    const answers = [];
    for (let i = 0; i < FORGOT_PER_NETWORK + 10; i++) {
      // A new address of the /64 and a new random e-mail each time, as in the attack.
      const ip = `2001:db8:77:1:${(i + 1).toString(16)}::${(i * 7 + 3).toString(16)}`;
      answers.push(await forgotFrom(server, ip, `random${i}@example.com`));
    }
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(await resetJobs(server)).toBe(before + FORGOT_PER_NETWORK);
    // The next /64 is another client.
    await forgotFrom(server, '2001:db8:77:2::1', 'random-next@example.com');
    expect(await resetJobs(server)).toBe(before + FORGOT_PER_NETWORK + 1);
  });

  it('prunes finished jobs after their retention, with the addresses they carry', async () => {
    expect(SCHEDULES.map((s) => s.name)).toContain(JobName.PruneJobs);
    await queueIdle();
    const db = server.ctx.db;
    const now = server.ctx.now();
    const old = new Date(now - JOB_RETENTION_MS - 60_000);
    const recent = new Date(now - 60_000);
    // What workers leave behind: reset-link jobs done or failed long ago and just now.
    await db.query(
      `UPDATE jobs SET state = 'done', updated_at = $1 WHERE payload->>'email' = 'target@example.com'`,
      [old],
    );
    await db.query(
      `UPDATE jobs SET state = 'failed', updated_at = $1 WHERE payload->>'email' = 'other@example.com'`,
      [old],
    );
    await db.query(
      `UPDATE jobs SET state = 'done', updated_at = $1 WHERE payload->>'email' = 'random0@example.com'`,
      [recent],
    );
    const jobsBefore = await resetJobs(server);
    await pruneJobsHandler.run(server.ctx, {} as JobRow, new AbortController().signal);
    const gone = ['target@example.com', 'other@example.com'];
    for (const email of gone) expect(await resetJobs(server, email)).toBe(0);
    expect(await resetJobs(server, 'random0@example.com')).toBe(1);
    // Only those: the jobs finished within the retention stay.
    expect(await resetJobs(server)).toBe(jobsBefore - FORGOT_PER_ADDRESS - 1);
  });

  it('counts failed logins of a whole IPv6 /64 together', async () => {
    const now = server.ctx.now();
    for (let i = 0; i < LOGIN_IP_FAILURES; i++) {
      await recordEvent(server.ctx.db, {
        scope: 'login',
        key: `user${i}@example.com`,
        clientIp: networkKey(`2001:db8:88:1::${i + 1}`),
        at: now - 1000,
      });
    }
    const login = (ip: string) =>
      callFrom(server, '127.0.0.1', 'POST', '/api/login', {
        body: { email: 'nobody@example.com', password: 'Wrong1234' },
        headers: { 'x-forwarded-for': ip },
      });
    // A fresh address of the same /64 is the same client.
    expect((await login('2001:db8:88:1:dead:beef:0:1')).status).toBe(429);
    expect((await login('2001:db8:88:2::1')).status).toBe(401);
  });
});

describe('mail lanes', () => {
  it("sends a signed-in user's code while a flood of reset mails is still queued", async () => {
    const token = await server.login('mira@example.com', 'Mira12345');
    // Reset mails for real accounts, from many networks: 6 x 400 ms of mail server time.
    for (let i = 0; i < FLOOD; i++) {
      await forgotFrom(server, `203.0.113.${i + 1}`, `flood${i}@example.com`);
    }
    const asked = await server.call('POST', '/api/users/change-email-request', {
      token,
      body: { current_password: 'Mira12345', new_email: 'mira.new@example.com', language: 'en' },
    });
    expect(asked.status).toBe(200);
    await smtp.waitFor(FLOOD + 1, 30_000);
    const order = smtp.received.map((m) => m.envelopeTo[0]);
    // One lane at a time sends one mail: the code goes out while the flood is still sending,
    // not after it (it would be last in one shared lane).
    expect(order.indexOf('mira.new@example.com')).toBeLessThanOrEqual(2);
  });
});
