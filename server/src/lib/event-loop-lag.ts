// How late the event loop is running: a timer that should fire every TICK_MS records how much
// later it did. The last two delays are kept, so that one long pause (a collection, one slow
// step) is told apart from an overload that lasts; the longest since the last reset is kept
// for the benches, which print the longest block of the main thread beside their answers.
const TICK_MS = 20;

export class EventLoopLag {
  private timer: NodeJS.Timeout | undefined;
  private expected = 0;
  private last = 0;
  private before = 0;
  private longest = 0;

  start(): this {
    this.expected = performance.now() + TICK_MS;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.before = this.last;
      this.last = Math.max(0, now - this.expected);
      this.longest = Math.max(this.longest, this.last);
      this.expected = now + TICK_MS;
    }, TICK_MS);
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The smaller of the last two delays (ms): high only while the loop stays late. */
  get sustainedMs(): number {
    // Timers run before I/O in each turn of the loop, so the tick of this turn is counted
    // before the requests it reads.
    return Math.min(this.last, this.before);
  }

  /** The longest delay (ms) since the last call: the longest the loop was blocked, to a tick. */
  takeLongestMs(): number {
    const longest = this.longest;
    this.longest = 0;
    return longest;
  }
}
