// The database thread's side (pglite.ts starts it): the embedded PGlite lives here, so its
// statements (synchronous WASM, and the parsing of their rows) run beside the server's thread
// instead of on it. Calls run one at a time in the order they came; while a transaction is
// open, only its own calls run and the others wait for its end, as on one connection. The one
// exception is the liveness check (ping): it runs next, between a transaction's statements if
// one is open, so a health answer never waits for an analysis's queue or transaction.
import fs from 'node:fs';
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { answerCalls } from '../lib/thread-calls.ts';
import { pgliteOptions } from './pglite-options.ts';
import { PreparedStatements } from './pglite-statements.ts';

// PostgreSQL's WebAssembly compiled by V8's optimising compiler, each function when first run,
// instead of by its baseline compiler with only the hottest functions optimised later: under
// load the baseline code kept the database thread overloaded for the first 15 s after a start
// and served a paced load's median in 40 ms instead of 7 (docs/decisions/pglite-thread.md).
// A process-wide V8 setting, read when a module is compiled: it is made before PGlite's is, for a
// server; a short run (the admin command, tests) starts about 1.5 CPU-s sooner without it.
const optimiseAll = (): void => v8.setFlagsFromString('--no-wasm-dynamic-tiering');
// One background task compiles WebAssembly instead of one per V8 worker thread: each compiling
// thread left its compiler's scratch memory in a malloc arena of its own, which glibc keeps (the
// 100-130 MB of arenas at rest); one task peaked at 37 MB of it instead of 94 and used less CPU
// in all (docs/decisions/server-memory.md). Process-wide, like the setting above.
const compileOneAtATime = (): void => v8.setFlagsFromString('--wasm-num-compilation-tasks=1');

export type DbCall =
  /**
   * Creates the database: in memory, or on disk in dataDir. An in-memory one may start as a copy
   * of a file written by `save` instead of from an empty cluster (PGlite's initdb).
   */
  | { id: number; op: 'open'; dataDir: string | undefined; from?: string; shortRun?: boolean }
  /** Writes the whole database to a file (a tar of its folder), for `open` to start from. */
  | { id: number; op: 'save'; file: string }
  | {
      id: number;
      op: 'query';
      sql: string;
      params?: readonly unknown[] | undefined;
      tx?: number;
      /** Settings in force for this statement alone (Db.queryWith). */
      settings?: Readonly<Record<string, string>>;
    }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  /** Opens a transaction; its id is this call's id. */
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  /** `SELECT 1` ahead of everything queued (Db.ping). */
  | { id: number; op: 'ping' }
  | { id: number; op: 'close' };

interface Queued {
  call: DbCall;
  run(): void;
}

let pg: PGlite | undefined;
let statements: PreparedStatements | undefined;
/** The open transaction's id. */
let inTx: number | undefined;
const queue: Queued[] = [];
let running = false;

function database(): { pg: PGlite; statements: PreparedStatements } {
  if (!pg || !statements) throw new Error('the database is not open');
  return { pg, statements };
}

async function perform(call: DbCall): Promise<unknown> {
  switch (call.op) {
    case 'open':
      compileOneAtATime();
      if (!call.shortRun) optimiseAll();
      pg = await PGlite.create({
        ...pgliteOptions(call.dataDir),
        ...(call.from ? { loadDataDir: await fs.openAsBlob(call.from) } : {}),
      });
      statements = new PreparedStatements(pg);
      return undefined;
    case 'save': {
      const dump = await database().pg.dumpDataDir('none');
      await fs.promises.writeFile(call.file, Buffer.from(await dump.arrayBuffer()));
      return undefined;
    }
    case 'query':
      return database().statements.query(call.sql, call.params, call.settings);
    case 'exec':
      await database().pg.exec(call.sql);
      return undefined;
    case 'begin':
      await database().pg.exec('BEGIN');
      inTx = call.id;
      return call.id;
    case 'end':
      inTx = undefined;
      await database().pg.exec(call.commit ? 'COMMIT' : 'ROLLBACK');
      return undefined;
    case 'ping':
      try {
        await database().pg.query('SELECT 1');
      } catch (err) {
        // Run inside a transaction that failed and awaits its rollback: the database answered.
        if (!(inTx !== undefined && (err as { code?: unknown }).code === IN_FAILED_TRANSACTION))
          throw err;
      }
      return undefined;
    case 'close':
      await pg?.close();
      pg = undefined;
      statements = undefined;
      return undefined;
  }
}

/** PostgreSQL's answer to a statement in a transaction that already failed. */
const IN_FAILED_TRANSACTION = '25P02';

/** The open transaction's own calls and pings, or anything when none is open. */
const mayRun = (call: DbCall): boolean =>
  inTx === undefined || call.op === 'ping' || ('tx' in call && call.tx === inTx);

function pump(): void {
  if (running) return;
  const at = queue.findIndex((q) => mayRun(q.call));
  if (at < 0) return;
  const [next] = queue.splice(at, 1);
  running = true;
  next!.run();
}

answerCalls<DbCall>(
  parentPort!,
  (call) =>
    new Promise((resolve, reject) => {
      const queued = {
        call,
        run: () => {
          perform(call)
            .then(resolve, reject)
            .finally(() => {
              running = false;
              pump();
            });
        },
      };
      if (call.op === 'ping') queue.unshift(queued);
      else queue.push(queued);
      pump();
    }),
);
