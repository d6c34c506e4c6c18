// What a server reads ahead once started, a few statements at a time so that searches go on
// meanwhile: the most frequent terms' keyword lists into memory (term-lists.ts), then the HNSW
// graphs of the embedded database into its shared buffers, as pg_prewarm would (PGlite has none;
// pageinspect's get_raw_page reads a page through the buffers). A dense query visits ~1,000
// pages of the graph and each one not in the buffers is a file read through the WebAssembly
// file system: cold, a query at 200k scenes took 68-87 ms, warm 6
// (docs/decisions/dense-search-prewarm.md). PostgreSQL keeps its own buffers and the OS cache warm: nothing to do
// there.
import type { Db } from '../db/db.ts';
import { SCENE_DOC, VIDEO_DOC } from './documents.ts';
import { POSTING_BYTES } from './term-list.ts';
import { keywordLists, type KeywordLists } from './term-lists.ts';

/** The share of the lists' budget read ahead; the rest for lists read on first use. */
const LISTS_SHARE = 0.75;
/** Of that share, what the videos' own documents may take first (see preloadLists). */
const VIDEO_LISTS_SHARE = 1 / 3;
/** The videos' lists are read ahead when they are at most this many (every team's). */
const MAX_VIDEO_TERMS = 200_000;
/** Of the other lists, shorter ones are read on first use: a millisecond or so. */
const LISTS_MIN_DF = 100;
/** Postings per statement (one list may be longer). */
const LISTS_CHUNK = 20_000;

interface TermRow extends Record<string, unknown> {
  team_id: string;
  kind: number;
  term: string;
  df: number;
}

const TERMS = `SELECT team_id, kind, term, df FROM search_terms WHERE kind = ANY($1::int[]) AND df >= $2
ORDER BY df DESC, team_id, kind, term LIMIT $3`;

/**
 * Reads keyword lists ahead, up to a share of the lists' budget: first every list of the videos'
 * own documents (one per video: a small index, searched by every "similar videos" query and
 * every video search), when they fit a third of the share; then the most frequent terms' lists
 * of every kind. The long lists are the costly ones to read (a posting ~1.5 us on PGlite); the
 * rare ones are cheap each, but a query that meets one waits for a statement: a "similar videos"
 * query, whose terms are an item's rarest, read about 15 of them each time (3-6 ms at 50k videos
 * on PostgreSQL) when the videos' lists under 100 postings were left to be read on first use.
 * Returns the postings.
 */
export async function preloadLists(
  db: Db,
  lists: KeywordLists = keywordLists(db),
  stop: () => boolean = () => false,
): Promise<number> {
  const room = (lists.budget * LISTS_SHARE) / POSTING_BYTES;
  const videos = await db.query<TermRow>(TERMS, [[VIDEO_DOC], 1, MAX_VIDEO_TERMS]);
  const frequent = await db.query<TermRow>(TERMS, [
    [VIDEO_DOC, SCENE_DOC],
    LISTS_MIN_DF,
    Math.ceil(room / LISTS_MIN_DF),
  ]);
  const chosen = new Map<string, { teamId: string; kind: number; terms: TermRow[] }>();
  const taken = new Set<string>();
  let postings = 0;
  const take = (t: TermRow): void => {
    const id = `${t.team_id}/${t.kind}`;
    if (taken.has(`${id}/${t.term}`)) return;
    taken.add(`${id}/${t.term}`);
    postings += t.df;
    let c = chosen.get(id);
    if (!c) chosen.set(id, (c = { teamId: t.team_id, kind: t.kind, terms: [] }));
    c.terms.push(t);
  };
  const videoPostings = videos.reduce((n, t) => n + t.df, 0);
  if (videos.length < MAX_VIDEO_TERMS && videoPostings <= room * VIDEO_LISTS_SHARE)
    videos.forEach(take);
  for (const t of frequent) {
    if (postings + t.df > room) break;
    take(t);
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
