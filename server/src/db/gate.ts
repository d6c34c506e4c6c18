// The database's front door. The embedded PGlite is one connection that runs one statement at a
// time in FIFO order of statements, so under load a request that needs five statements queued
// five times behind every other client's statements: the median was 280 ms while some requests
// waited over 30 s (issue 14). Here every statement (a transaction counts as one) waits in one
// queue ordered by the age of the HTTP request it serves, so the oldest request finishes first;
// analysis jobs' statements queue as if their request had come JOB_HANDICAP_MS later (they
// still run under load, just behind what users wait for). A request whose statement cannot start
// before its queue budget runs out gets a fast 503 (load shedding) instead of a long wait.
import { AsyncLocalStorage } from 'node:async_hooks';
import { HttpError } from '../lib/http-error.ts';
import type { Db, Queryable, Row } from './db.ts';

/** How long a request may wait for the database in all before it is answered 503. */
export const QUEUE_BUDGET_MS = 1000;
/** Job statements queue as if they were this much younger than a request of the same moment. */
export const JOB_HANDICAP_MS = 200;
/** Seconds a shed client is told to wait (Retry-After). */
export const RETRY_AFTER_SECONDS = 1;

export class ServerBusyError extends HttpError {
  constructor() {
    super(503, 'The server is busy. Please try again in a moment.');
  }
}

export interface RequestClock {
  /** performance.now() when the request arrived. */
  arrivedAt: number;
  /** Cleared once answered: work a request leaves running after its answer queues as a job. */
  open: boolean;
  /**
   * Set once its first statement got the database: later ones are never shed, so a request is
   * refused before it changes anything or not at all (a refresh shed after its rotation lost its
   * answer and left the client with a dead token).
   */
  admitted?: boolean;
}

const requestClock = new AsyncLocalStorage<RequestClock>();

/** Runs the rest of an HTTP request's work as that request (its statements queue by its age). */
export function asRequest(clock: RequestClock, next: () => void): void {
  requestClock.run(clock, next);
}

interface Waiter {
  order: number;
  /** Slots it takes. */
  weight: number;
  deadline: number | undefined;
  start: () => void;
  shed: () => void;
  timer?: NodeJS.Timeout;
}

/** A queue in front of `slots` connections, by request age, with a budget per request. */
export class Gate {
  private busy = 0;
  private readonly waiting: Waiter[] = [];
  /** Moving average of how long a statement holds a slot, for the wait estimate. */
  private holdMs = 2;

  constructor(private readonly slots: number) {}

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs work on `weight` slots (all of them for a transaction that holds the only connection). */
  async run<T>(work: () => Promise<T>, weight = 1): Promise<T> {
    await this.enter(weight);
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.holdMs = 0.9 * this.holdMs + 0.1 * (performance.now() - started);
      this.busy -= weight;
      this.next();
    }
  }

  private enter(weight: number): Promise<void> {
    const store = requestClock.getStore();
    const clock = store?.open ? store : undefined;
    const now = performance.now();
    const order = clock ? clock.arrivedAt : now + JOB_HANDICAP_MS;
    const deadline = clock && !clock.admitted ? clock.arrivedAt + QUEUE_BUDGET_MS : undefined;
    if (this.busy + weight <= this.slots && this.waiting.length === 0) {
      this.busy += weight;
      if (clock) clock.admitted = true;
      return Promise.resolve();
    }
    let at = this.waiting.findIndex((w) => w.order > order);
    if (at < 0) at = this.waiting.length;
    // Fail fast when the statements ahead will not be done within this request's budget.
    if (deadline !== undefined && now + ((at + 1) * this.holdMs) / this.slots > deadline) {
      return Promise.reject(new ServerBusyError());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        order,
        weight,
        deadline,
        start: () => {
          clearTimeout(waiter.timer);
          if (clock) clock.admitted = true;
          resolve();
        },
        shed: () => reject(new ServerBusyError()),
      };
      if (deadline !== undefined) {
        waiter.timer = setTimeout(() => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          waiter.shed();
        }, deadline - now);
      }
      this.waiting.splice(at, 0, waiter);
    });
  }

  private next(): void {
    // In order: a transaction waiting for every slot is not overtaken by single statements.
    while (this.waiting[0] && this.busy + this.waiting[0].weight <= this.slots) {
      const waiter = this.waiting.shift()!;
      this.busy += waiter.weight;
      waiter.start();
    }
  }
}

/** The database behind a gate: every statement and every transaction passes through it. */
export function gated(db: Db): Db {
  const gate = new Gate(db.connections);
  return {
    kind: db.kind,
    connections: db.connections,
    exclusiveTx: db.exclusiveTx,
    query: <T extends Row>(sql: string, params?: readonly unknown[]) =>
      gate.run(() => db.query<T>(sql, params)),
    queryWith: <T extends Row>(
      settings: Readonly<Record<string, string>>,
      sql: string,
      params?: readonly unknown[],
    ) => gate.run(() => db.queryWith<T>(settings, sql, params)),
    exec: (sql: string) => gate.run(() => db.exec(sql)),
    // Not queued: it goes ahead of every statement waiting here (Db.ping).
    ping: () => db.ping(),
    tx: <T>(fn: (q: Queryable) => Promise<T>) =>
      gate.run(() => db.tx(fn), db.exclusiveTx ? db.connections : 1),
    close: () => db.close(),
  };
}
