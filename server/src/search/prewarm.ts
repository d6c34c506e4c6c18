// What a server reads ahead once started, a few statements at a time so that searches go on
// meanwhile: the most frequent terms' keyword lists into memory (term-lists.ts), then the HNSW
// graphs of the embedded database into its shared buffers, as pg_prewarm would (PGlite has none;
// pageinspect's get_raw_page reads a page through the buffers). A dense query visits ~1,000
// pages of the graph and each one not in the buffers is a file read through the WebAssembly
// file system: cold, a query at 200k scenes took 68-87 ms, warm 6
// (docs/decisions/dense-search-prewarm.md). PostgreSQL keeps its own buffers and the OS cache warm: nothing to do
// there.
import type { Db } from '../db/db.ts';
import { POSTING_BYTES } from './term-list.ts';
import { keywordLists, type KeywordLists } from './term-lists.ts';

/** The share of the lists' budget read ahead, most frequent terms first. */
const LISTS_SHARE = 0.75;
/** Shorter lists are read on first use: a millisecond or so. */
const LISTS_MIN_DF = 100;
/** Postings per statement (one list may be longer). */
const LISTS_CHUNK = 20_000;

/**
 * Reads the lists of the most frequent terms of every team and kind, up to a share of the lists'
 * budget. The long lists are the costly ones to read (a posting ~1.5 us on PGlite) and the ones
 * queries meet most; the rare terms' short lists are read as they come. Returns the postings.
 */
export async function preloadLists(
  db: Db,
  lists: KeywordLists = keywordLists(db),
  stop: () => boolean = () => false,
): Promise<number> {
  const terms = await db.query<{ team_id: string; kind: number; term: string; df: number }>(
    `SELECT team_id, kind, term, df FROM search_terms
     ORDER BY df DESC, team_id, kind, term LIMIT $1`,
    [Math.ceil(lists.budget / POSTING_BYTES / LISTS_MIN_DF)],
  );
  const chosen = new Map<string, { teamId: string; kind: number; terms: typeof terms }>();
  let postings = 0;
  for (const t of terms) {
    if (t.df < LISTS_MIN_DF || (postings + t.df) * POSTING_BYTES > lists.budget * LISTS_SHARE)
      break;
    postings += t.df;
    const id = `${t.team_id}/${t.kind}`;
    let c = chosen.get(id);
    if (!c) chosen.set(id, (c = { teamId: t.team_id, kind: t.kind, terms: [] }));
    c.terms.push(t);
  }
  for (const { teamId, kind, terms: all } of chosen.values()) {
    const [stats] = await db.query<{ version: string; avgdl: number }>(
      `SELECT version::text, impact_avgdl AS avgdl FROM search_corpus_stats
       WHERE team_id = $1 AND kind = $2`,
      [teamId, kind],
    );
    if (!stats) continue;
    let chunk: string[] = [];
    let size = 0;
    for (const [i, t] of all.entries()) {
      chunk.push(t.term);
      size += t.df;
      if (size < LISTS_CHUNK && i < all.length - 1) continue;
      if (stop()) return postings;
      await lists.open(teamId, kind, Number(stats.version), Number(stats.avgdl), chunk);
      chunk = [];
      size = 0;
    }
  }
  return postings;
}

/**
 * The graphs, the videos' first (smaller, and searched from every list page), then the faces'
 * (every analysis looks up its faces there: cold, a 200-scene video's faces took 2.5-7.3 s
 * against 0.85-1.3 s warm at 100,000 faces, bench/figures/people.md).
 */
const GRAPHS = ['videos_embedding_hnsw', 'scenes_embedding_hnsw', 'face_vectors_hnsw'];
/** Pages read at most: 400 MB of the 512 MB of buffers (db/pglite-options.ts). */
const MAX_PAGES = (400 * 2 ** 20) / 8192;
/** Pages a statement, so that searches go on meanwhile (~0.1 s each). */
const CHUNK = 2000;

/**
 * On the embedded database, reads the graphs' pages into the buffers; returns how many. `stop`
 * ends it between statements. PostgreSQL's pages stay in the system's file cache once read.
 */
export function prewarmGraphs(db: Db, stop: () => boolean = () => false): Promise<number> {
  return db.kind === 'pglite' ? readGraphPages(db, stop) : Promise.resolve(0);
}

/** The read itself, for any database with pageinspect (a bench serving PGlite over the wire). */
export async function readGraphPages(db: Db, stop: () => boolean = () => false): Promise<number> {
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
  const stop = (): boolean => stopped;
  const done = (async () => {
    const postings = await preloadLists(db, keywordLists(db), stop);
    const pages = stopped ? 0 : await prewarmGraphs(db, stop);
    return { postings, pages };
  })();
  return {
    done,
    stop() {
      stopped = true;
    },
  };
}
