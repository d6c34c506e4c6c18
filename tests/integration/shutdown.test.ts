// Shutdown always ends (issue 14): `npm start` started as OPERATIONS.md says, signed in, then
// SIGTERM to its process group: every process of the group has ended within 10 s, also when
// the process reading its logs stopped reading, and also when a request never finishes (then the
// server says what it waited for when its deadline passes).
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { npmStart, waitFor, type NpmStart } from '../support/npm-start.ts';

let started: NpmStart | undefined;
afterEach(() => started?.cleanUp());

/** Seconds until the group has no process left (gives up at `ms`). */
async function endsWithin(s: NpmStart, ms: number): Promise<boolean> {
  try {
    await waitFor('every process to end', () => s.alive().length === 0, ms);
    return true;
  } catch {
    return false;
  }
}

describe('shutdown', () => {
  it('ends within 10 s of SIGTERM after a sign-in, when its log reader stopped reading', async () => {
    started = await npmStart();
    const s = started;
    const token = await s.signInDemo();
    // The process reading the logs stops reading; signed-in traffic fills the pipe to it.
    const reader = s.readerPid();
    process.kill(reader, 'SIGSTOP');
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${s.url}/api/profile?n=${i}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBeLessThan(500);
    }
    process.kill(-s.child.pid!, 'SIGTERM');
    // Every process but the stopped reader ends; then the reader reads the rest and ends too.
    const others = (): string[] => s.alive().filter((p) => !p.startsWith(`${reader} `));
    await waitFor('every process but the reader to end', () => others().length === 0, 10_000).catch(
      () => undefined,
    );
    expect(others()).toEqual([]);
    process.kill(reader, 'SIGCONT');
    expect(await endsWithin(s, 10_000), s.alive().join('\n')).toBe(true);
  }, 300_000);

  it('gives up on a request that never ends after 10 s and says what it waited for', async () => {
    started = await npmStart({ env: { WORKER: 'off' } });
    const s = started;
    await s.signInDemo();
    // A client that sends half a body and then nothing: its request stays in flight.
    const socket = net.connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"email":',
    );
    await new Promise((r) => setTimeout(r, 300));
    process.kill(-s.child.pid!, 'SIGTERM');
    expect(await endsWithin(s, 20_000), s.alive().join('\n')).toBe(true);
    socket.destroy();
    const lines = s
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; waitingFor?: string[] });
    const deadline = lines.find((l) => l.msg === 'shutdown deadline passed: exiting');
    expect(deadline?.waitingFor).toEqual(['HTTP: 1 connection(s) with a request in flight']);
  }, 300_000);
});
