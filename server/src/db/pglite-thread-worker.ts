// The database thread's side (pglite.ts starts it): the embedded PGlite lives here, so its
// statements (synchronous WASM, and the parsing of their rows) run beside the server's thread
// instead of on it. Calls run one at a time in the order they came; while a transaction is
// open, only its own calls run and the others wait for its end, as on one connection.
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pageinspect } from '@electric-sql/pglite/contrib/pageinspect';
import { vector } from '@electric-sql/pglite-pgvector';
import { answerCalls } from '../lib/thread-calls.ts';
import { PreparedStatements } from './pglite-statements.ts';

// PostgreSQL's WebAssembly compiled by V8's optimising compiler, each function when first run,
// instead of by its baseline compiler with only the hottest functions optimised later: under
// load the baseline code kept the database thread overloaded for the first 15 s after a start
// and served a paced load's median in 40 ms instead of 7 (docs/decisions.md, "Load bench").
// A process-wide V8 setting, read when a module is compiled: it is made before PGlite's is.
v8.setFlagsFromString('--no-wasm-dynamic-tiering');

export type DbCall =
  /** Creates the database: in memory, or on disk in dataDir. */
  | { id: number; op: 'open'; dataDir: string | undefined }
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
  | { id: number; op: 'close' };

interface Queued {
  call: DbCall;
  run(): void;
}

/**
 * On disk, 512 MB of shared buffers instead of 128, so that the HNSW graph of a large archive
 * stays in them (200k scenes: 391 MB): a dense query visits ~1,000 of its pages, and each one
 * missed is a file read through the WebAssembly file system (docs/decisions.md, "Dense search in
 * the buffers"). Buffers take memory only once used: a small archive's process stays as small.
 */
const ON_DISK_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=512MB'];

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
      pg = await PGlite.create({
        ...(call.dataDir ? { dataDir: call.dataDir, startParams: ON_DISK_PARAMS } : {}),
        // pageinspect reads pages into the buffers ahead of searches (search/prewarm.ts).
        extensions: { vector, pageinspect },
      });
      statements = new PreparedStatements(pg);
      return undefined;
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
    case 'close':
      await pg?.close();
      pg = undefined;
      statements = undefined;
      return undefined;
  }
}

/** The open transaction's own calls, or anything when none is open. */
const mayRun = (call: DbCall): boolean => inTx === undefined || ('tx' in call && call.tx === inTx);

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
      queue.push({
        call,
        run: () => {
          perform(call)
            .then(resolve, reject)
            .finally(() => {
              running = false;
              pump();
            });
        },
      });
      pump();
    }),
);
