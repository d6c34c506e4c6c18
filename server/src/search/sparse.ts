// Keyword search: Okapi BM25 over the postings of migrations 005 and 009
// (docs/decisions/keyword-search-impacts.md and keyword-lists-in-memory.md). Document frequencies come from
// search_terms; each posting carries its impact (BM25's tf part at the stored average length), so
// a score is sum(weight * impact). The terms' lists are held in memory (term-lists.ts) and the
// top k found by MaxScore (max-score.ts): the exact top k, scores rounded to 9 decimals and ties
// broken by id, as the exact reference and PostgreSQL order them. Scope "current" (one video's
// scenes) is scored in SQL: a few postings read by the video's key.
import type { Db, Queryable } from '../db/db.ts';
import { VIDEO_DOC, type SCENE_DOC } from './documents.ts';
import { maxScore, type ScoredList } from './max-score.ts';
import { partsOf } from './term-list.ts';
import { keywordLists } from './term-lists.ts';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface SparseQuery {
  teamId: string;
  kind: typeof VIDEO_DOC | typeof SCENE_DOC;
  /**
   * Query terms and their weights (query term frequency), or the indexed document ("similar
   * to": video, and scene or VIDEO_SCENE_IDX) whose terms are the query (documentTerms).
   */
  terms: Map<string, number> | ItemTerms;
  limit: number;
  onlyVideoId?: string | undefined;
  excludeVideoId?: string | undefined;
  excludeSceneIdx?: number | undefined;
}

export interface ItemTerms {
  videoId: string;
  sceneIdx: number;
}

export interface SparseHit {
  videoId: string;
  sceneIdx?: number;
  /** BM25 divided by the query's upper bound (every term at infinite tf): 0..1. */
  score: number;
}

/**
 * A "similar to" query leaves out the terms of more than this share of the documents (and more
 * than MAX_DF_FLOOR), as Lucene's More Like This does with maxDocFreqPct: such a term says little
 * of what sets the item apart (idf under ln 10), and its list is the longest to score (scoring
 * a "similar" query at 200k scenes: 8 ms with them, 2 ms without; at 10k videos 4.8 against 1.1).
 * A small archive (its terms in fewer than MAX_DF_FLOOR documents) keeps every term.
 */
export const MAX_DF_SHARE = 0.1;
export const MAX_DF_FLOOR = 1000;

/**
 * The terms of an indexed document ($team's video $video, scene $scene: its most distinctive,
 * tf * idf, at most $max, leaving out the common ones, see MAX_DF_SHARE) as rows (term, qw).
 */
function itemTermsSql(
  team: number,
  video: number,
  scene: number,
  max: number,
  floor: number,
): string {
  return `
SELECT p.term, p.tf::float8 AS qw
FROM search_postings p
JOIN search_terms t ON t.team_id = p.team_id AND t.kind = p.kind AND t.term = p.term
JOIN search_corpus_stats s ON s.team_id = p.team_id AND s.kind = p.kind
WHERE p.video_id = $${video} AND p.scene_idx = $${scene} AND p.team_id = $${team}
  AND t.df <= greatest(s.n_docs * ${MAX_DF_SHARE}, $${floor})
ORDER BY p.tf * ln(1 + (s.n_docs::float8 - t.df::float8 + 0.5) / (t.df::float8 + 0.5)) DESC, p.term
LIMIT $${max}`;
}

/**
 * The query terms' weights ($1 the team, $2 the kind of document searched; the terms from
 * `source`, rows (term, qw)), with what the lists in memory need to be current: the index's
 * version and the impacts' average length, and the videos to leave out (not finished).
 */
const weightsSql = (source: string): string => `
SELECT q.term,
       q.qw * ln(1 + (s.n_docs::float8 - t.df::float8 + 0.5) / (t.df::float8 + 0.5)) * ${BM25_K1 + 1} AS weight,
       s.version::text AS version, s.impact_avgdl AS avgdl,
       (SELECT array_agg(v.id) FROM videos v WHERE v.team_id = $1 AND v.status <> 'completed') AS hidden
FROM (${source}) AS q(term, qw)
JOIN search_terms t ON t.team_id = $1 AND t.kind = $2 AND t.term = q.term
JOIN search_corpus_stats s ON s.team_id = $1 AND s.kind = $2`;

/** A free-text query's terms ($3) and their weights in it ($4). */
const TEXT_WEIGHTS = weightsSql('SELECT * FROM unnest($3::text[], $4::float8[])');
/** "Similar to" an item: its terms chosen and weighed in one statement ($3 video, $4 scene). */
const ITEM_WEIGHTS = weightsSql(itemTermsSql(1, 3, 4, 5, 6));

interface Weights extends Record<string, unknown> {
  term: string;
  weight: number;
  version: string;
  avgdl: number;
  hidden: string[] | null;
}

/** Scope "current": one video's scenes, scored from their postings ($5 the video). */
const ONE_VIDEO = `
SELECT p.video_id, p.scene_idx, sum(q.w * p.impact) AS score
FROM unnest($1::text[], $2::float8[]) AS q(term, w)
JOIN search_postings p ON p.video_id = $5::uuid AND p.scene_idx >= 0 AND p.term = q.term
WHERE p.team_id = $6 AND p.kind = $7
  AND EXISTS (SELECT 1 FROM videos v WHERE v.id = p.video_id AND v.status = 'completed')
  AND (p.video_id = $3::uuid AND ($4::int IS NULL OR p.scene_idx = $4::int)) IS NOT TRUE
GROUP BY p.video_id, p.scene_idx
ORDER BY round(sum(q.w * p.impact)::numeric, 9) DESC, p.video_id, p.scene_idx
LIMIT $8`;

interface Scored {
  videoId: string;
  sceneIdx: number;
  score: number;
}

async function oneVideo(q: Db, query: SparseQuery, w: Weights[]): Promise<Scored[]> {
  const rows = await q.query<{ video_id: string; scene_idx: number; score: number }>(ONE_VIDEO, [
    w.map((t) => t.term),
    w.map((t) => t.weight),
    query.excludeVideoId ?? null,
    query.excludeSceneIdx ?? null,
    query.onlyVideoId,
    query.teamId,
    query.kind,
    query.limit,
  ]);
  return rows.map((r) => ({ videoId: r.video_id, sceneIdx: r.scene_idx, score: Number(r.score) }));
}

async function inMemory(q: Db, query: SparseQuery, w: Weights[]): Promise<Scored[]> {
  const view = await keywordLists(q).open(
    query.teamId,
    query.kind,
    Number(w[0]!.version),
    Number(w[0]!.avgdl),
    w.map((t) => t.term),
  );
  const lists: ScoredList[] = [];
  for (const [i, l] of view.lists.entries()) {
    for (const part of l ? partsOf(l) : []) lists.push({ ...part, weight: w[i]!.weight });
  }
  const hidden = new Set<number>();
  const hide = (id: string): void => {
    const no = view.videoNo(id);
    if (no !== undefined) hidden.add(no);
  };
  for (const id of w[0]!.hidden ?? []) hide(id);
  let self: number | undefined;
  if (query.excludeVideoId !== undefined) {
    const no = view.videoNo(query.excludeVideoId);
    if (query.excludeSceneIdx === undefined) hide(query.excludeVideoId);
    else if (no !== undefined) self = view.keyOf(no, query.excludeSceneIdx);
  }
  const skip = (key: number): boolean =>
    key === self || view.isDead(key) || (hidden.size > 0 && hidden.has(view.videoNoOf(key)));
  return maxScore(lists, query.limit, skip, view.tie).map((h) => ({
    videoId: view.videoOf(h.key),
    sceneIdx: view.sceneOf(h.key),
    score: h.score,
  }));
}

/** The query's terms with their weights, in one statement. */
async function weightsOf(q: Db, query: SparseQuery): Promise<Weights[]> {
  const { teamId, kind, terms } = query;
  const rows =
    terms instanceof Map
      ? terms.size === 0
        ? []
        : await q.query<Weights>(TEXT_WEIGHTS, [
            teamId,
            kind,
            [...terms.keys()],
            [...terms.values()],
          ])
      : await q.query<Weights>(ITEM_WEIGHTS, [
          teamId,
          kind,
          terms.videoId,
          terms.sceneIdx,
          MAX_ITEM_TERMS,
          MAX_DF_FLOOR,
        ]);
  return rows.map((r) => ({ ...r, weight: Number(r.weight) }));
}

export async function sparseSearch(q: Db, query: SparseQuery): Promise<SparseHit[]> {
  const w = await weightsOf(q, query);
  if (w.length === 0) return [];
  const rows = query.onlyVideoId ? await oneVideo(q, query, w) : await inMemory(q, query, w);
  const upper = w.reduce((s, b) => s + b.weight, 0);
  return rows.map((r) => ({
    videoId: r.videoId,
    ...(query.kind === VIDEO_DOC ? {} : { sceneIdx: r.sceneIdx }),
    score: upper > 0 ? Math.min(1, r.score / upper) : 0,
  }));
}

/** The most terms of an item a "similar to" query keeps. */
export const MAX_ITEM_TERMS = 48;

/**
 * The terms of an indexed document, as a query for "similar to this item": its most
 * distinctive terms (tf * idf), capped so the query stays fast. sparseSearch chooses them itself
 * from an ItemTerms; this is for the references that score them another way.
 */
export async function documentTerms(
  q: Queryable,
  teamId: string,
  videoId: string,
  sceneIdx: number,
  maxTerms = MAX_ITEM_TERMS,
  commonFloor = MAX_DF_FLOOR,
): Promise<Map<string, number>> {
  const rows = await q.query<{ term: string; qw: number }>(itemTermsSql(1, 2, 3, 4, 5), [
    teamId,
    videoId,
    sceneIdx,
    maxTerms,
    commonFloor,
  ]);
  return new Map(rows.map((r) => [r.term, r.qw]));
}
