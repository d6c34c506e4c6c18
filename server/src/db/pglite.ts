// The embedded database: PGlite, in a worker thread of its own. Its statements are synchronous
// WASM and their rows are parsed in JavaScript; on the server's thread they took two thirds of
// its time under load and, running from one promise to the next, kept the event loop from
// accepting new connections for seconds (issue 14). In its thread they run beside the server's.
import fs from 'node:fs';
import { threadCalls } from '../lib/thread-calls.ts';
import { tsWorker } from '../lib/ts-worker.ts';
import type { Db, Queryable, Row } from './db.ts';
import { lockEmbeddedDatabase } from './embedded-lock.ts';
import type { DbCall } from './pglite-thread-worker.ts';

/** Statements the database queue (gate.ts) lets into the thread at once. */
const IN_FLIGHT = 16;

/** A call as sent: the id is added by threadCalls. */
type WithoutId<C> = C extends unknown ? Omit<C, 'id'> : never;
type Call = WithoutId<DbCall>;
type Send = <R>(c: Call) => Promise<R>;

/** The embedded database, which can also be saved whole to a file. */
export interface PgliteDb extends Db {
  /** Writes the database to `file`, from which an in-memory one can start (`openPglite`). */
  save(file: string): Promise<void>;
}

export interface PgliteOpenOptions {
  /** An in-memory database starts as a copy of this file (PgliteDb.save). */
  from?: string;
  /**
   * A short run (the admin command, tests): PostgreSQL's code is left to V8's baseline compiler,
   * which starts sooner but serves a load slower than a server's fully optimised code.
   */
  shortRun?: boolean;
}

/** Opens the embedded database; dataDir undefined means in memory (tests). */
export async function openPglite(
  dataDir: string | undefined,
  opts: PgliteOpenOptions = {},
): Promise<PgliteDb> {
  if (!dataDir) return openThread(undefined, opts);
  fs.mkdirSync(dataDir, { recursive: true });
  const unlock = lockEmbeddedDatabase(dataDir);
  try {
    const db = await openThread(dataDir, opts);
    return {
      ...db,
      close: async () => {
        await db.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

async function openThread(dataDir: string | undefined, opts: PgliteOpenOptions): Promise<PgliteDb> {
  // Loaded by tsx's require hook (tsWorker): PGlite's CommonJS build, the same code.
  const worker = tsWorker(new URL('./pglite-thread-worker.ts', import.meta.url));
  const calls = threadCalls(worker, 'database');
  const call: Send = (c) => calls.call(c);
  try {
    await call({ op: 'open', dataDir, ...opts });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  return {
    kind: 'pglite',
    // Statements sent ahead: the thread runs one at a time, but always has the next one queued
    // instead of waiting for this thread to read an answer and send it.
    connections: IN_FLIGHT,
    exclusiveTx: true,
    ...queryable(call, undefined),
    queryWith: <T extends Row>(
      settings: Readonly<Record<string, string>>,
      sql: string,
      params?: readonly unknown[],
    ) => call<T[]>({ op: 'query', sql, params, settings }),
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: 'begin' });
      let result: T;
      try {
        result = await fn(queryable(call, tx));
      } catch (err) {
        await call({ op: 'end', tx, commit: false });
        throw err;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    ping: () => call({ op: 'ping' }),
    save: (file) => call({ op: 'save', file }),
    async close() {
      await call({ op: 'close' });
      await worker.terminate();
    },
  };
}

function queryable(call: Send, tx: number | undefined): Queryable {
  return {
    query: <T extends Row>(sql: string, params?: readonly unknown[]) =>
      call<T[]>({ op: 'query', sql, params, tx }),
    exec: (sql: string) => call<undefined>({ op: 'exec', sql, tx }),
  };
}
