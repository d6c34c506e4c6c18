// A cap on concurrent password hashing. node:crypto runs scrypt on libuv's thread pool, the pool
// that file reads and writes use too: a login flood with no cap fills it with 32 MiB hashes and
// every upload, asset and report read waits behind them. So at most half the pool hashes at once,
// a short queue waits its turn, and beyond that (or beyond a few in flight from one network) the
// caller is refused at once instead of queueing without end. Counted per network (an IPv6 /64,
// network-key.ts), so one network rotating addresses cannot hold every slot and lock out logins.
import { networkKey } from './network-key.ts';

export class HashBusyError extends Error {
  constructor() {
    super('Password hashing is at its limit');
  }
}

export interface HashSlotLimits {
  /** Hashes running at once. */
  running: number;
  /** Further requests admitted to wait for a running slot, across all addresses. */
  queued: number;
  /** Requests admitted (hashing or waiting) from one client network (networkKey). */
  perNetwork: number;
}

/** Runs one hash in a running slot (waiting for one when all are busy). */
export type Hashing = <T>(work: () => Promise<T>) => Promise<T>;

export class HashSlots {
  private admitted = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly byNetwork = new Map<string, number>();

  constructor(readonly limits: HashSlotLimits) {}

  /**
   * Admits a request that will hash, or throws HashBusyError at once when its address's network
   * or the whole queue is full. fn runs at once (its throttle checks need no slot) and hashes through
   * the Hashing it is given.
   */
  async admit<T>(address: string, fn: (hashing: Hashing) => Promise<T>): Promise<T> {
    const network = networkKey(address);
    const mine = this.byNetwork.get(network) ?? 0;
    if (
      mine >= this.limits.perNetwork ||
      this.admitted >= this.limits.running + this.limits.queued
    ) {
      throw new HashBusyError();
    }
    this.admitted += 1;
    this.byNetwork.set(network, mine + 1);
    try {
      return await fn((work) => this.hash(work));
    } finally {
      this.admitted -= 1;
      const left = (this.byNetwork.get(network) ?? 1) - 1;
      if (left === 0) this.byNetwork.delete(network);
      else this.byNetwork.set(network, left);
    }
  }

  private async hash<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.running) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** libuv's pool size: UV_THREADPOOL_SIZE when set, else its default of 4. */
function threadPoolSize(): number {
  const n = Number(process.env.UV_THREADPOOL_SIZE);
  return Number.isInteger(n) && n > 0 ? n : 4;
}

/** The server's one set of slots: half the pool hashes, 16 wait, 4 per network. */
export const hashSlots = new HashSlots({
  running: Math.max(1, Math.floor(threadPoolSize() / 2)),
  queued: 16,
  perNetwork: 4,
});
