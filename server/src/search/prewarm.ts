// Reads the HNSW graphs of the embedded database into its shared buffers once a server starts,
// as pg_prewarm would (PGlite has none; pageinspect's get_raw_page reads a page through the
// buffers). A dense query visits ~1,000 pages of the graph and each one not in the buffers is a
// file read through the WebAssembly file system: cold, a query at 200k scenes took 68-87 ms,
// warm 6 (docs/decisions.md, "Dense search in the buffers"). PostgreSQL keeps its own buffers
// and the OS cache warm: nothing to do there.
import type { Db } from '../db/db.ts';
import { keywordLists } from './term-lists.ts';

/** The graphs, the videos' first (smaller, and searched from every list page). */
const GRAPHS = ['videos_embedding_hnsw', 'scenes_embedding_hnsw'];
/** Pages read at most: 400 MB of the 512 MB of buffers (pglite-thread-worker.ts). */
const MAX_PAGES = (400 * 2 ** 20) / 8192;
/** Pages a statement, so that searches go on meanwhile (~0.1 s each). */
const CHUNK = 2000;

/** Reads the graphs' pages into the buffers; returns how many. `stop` ends it between statements. */
export async function prewarmGraphs(db: Db, stop: () => boolean = () => false): Promise<number> {
  if (db.kind !== 'pglite') return 0;
  await db.exec('CREATE EXTENSION IF NOT EXISTS pageinspect');
  let read = 0;
  for (const graph of GRAPHS) {
    const [size] = await db.query<{ pages: number }>(
      'SELECT (pg_relation_size($1::regclass) / 8192)::int AS pages',
      [graph],
    );
    const pages = Math.min(size?.pages ?? 0, MAX_PAGES - read);
    for (let from = 0; from < pages && !stop(); from += CHUNK) {
      const to = Math.min(pages, from + CHUNK);
      await db.query('SELECT count(get_raw_page($1, g)) FROM generate_series($2::int, $3::int) g', [
        graph,
        from,
        to - 1,
      ]);
      read += to - from;
    }
  }
  return read;
}

export interface Warming {
  /** Postings of keyword lists and graph pages read, when done. */
  done: Promise<{ postings: number; pages: number }>;
  /** Ends it at its next statement (the server is closing). */
  stop(): void;
}

/** What a server reads ahead once started: the frequent terms' lists, then the graphs. */
export function warmSearch(db: Db): Warming {
  let stopped = false;
  const lists = keywordLists(db);
  const done = (async () => {
    const postings = await lists.preload();
    const pages = stopped ? 0 : await prewarmGraphs(db, () => stopped);
    return { postings, pages };
  })();
  return {
    done,
    stop() {
      stopped = true;
      lists.stopPreload();
    },
  };
}
