// The hashing slots are shared fairly: one network, however many addresses it rotates through,
// holds at most its share, and other networks still get in.
import { describe, expect, it } from 'vitest';
import { HashBusyError, HashSlots } from './hash-slots.ts';

/** Admits a request that hashes until released. */
function hold(slots: HashSlots, address: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = slots.admit(address, (hashing) => hashing(() => released));
  return { release, done };
}

describe('HashSlots', () => {
  it('refuses a fifth request from one IPv6 /64 whatever the address, not another network', async () => {
    const slots = new HashSlots({ running: 2, queued: 16, perNetwork: 4 });
    const held = [1, 2, 3, 4].map((n) => hold(slots, `2001:db8:5:6::${n}`));
    await expect(
      slots.admit('2001:db8:5:6:aaaa:bbbb:cccc:dddd', async () => 'in'),
    ).rejects.toBeInstanceOf(HashBusyError);
    // Another /64 and an IPv4 client are admitted.
    const other = hold(slots, '2001:db8:5:7::1');
    const ipv4 = slots.admit('198.51.100.9', async () => 'in');
    expect(await ipv4).toBe('in');
    for (const h of [...held, other]) h.release();
    await Promise.all([...held, other].map((h) => h.done));
    // Once released, the network may hash again.
    expect(await slots.admit('2001:db8:5:6::99', async () => 'again')).toBe('again');
  });

  it('keeps every slot from being held by one network rotating addresses', async () => {
    const slots = new HashSlots({ running: 2, queued: 16, perNetwork: 4 });
    const tries = Array.from({ length: 18 }, (_, n) => hold(slots, `2001:db8:9:9::${n + 1}`));
    // A refusal comes at once; an admitted request is still hashing a tick later.
    const tick = new Promise((resolve) => setTimeout(() => resolve('held'), 0));
    const outcomes = await Promise.all(
      tries.map((t) =>
        Promise.race([
          t.done.then(
            () => 'finished',
            (err: Error) => err.constructor.name,
          ),
          tick,
        ]),
      ),
    );
    expect(outcomes.filter((o) => o === 'held')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'HashBusyError')).toHaveLength(14);
    tries.forEach((t) => t.release());
    await Promise.allSettled(tries.map((t) => t.done));
  });
});
