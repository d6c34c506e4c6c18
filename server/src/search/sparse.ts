// Keyword search: Okapi BM25 in plain SQL over search_postings (migrations 005 and 009), pruned so
// a query reads the heads of its terms' lists instead of every posting (docs/decisions.md,
// "Keyword search at scale"). Document frequencies come from search_terms; each posting carries
// its impact (BM25's tf part at the stored average length), so a score is sum(weight * impact).
// Round 1 scores the first postings of each list exactly and takes the k-th score as theta;
// round 2 reads, per term, only the postings that can still reach theta (sparse-bounds.ts) and
// scores them exactly. The answer is the exact top k. Scores are rounded before ordering and
// ties are broken by id, so PGlite and PostgreSQL give the same ranking.
import type { Queryable } from '../db/db.ts';
import { VIDEO_DOC, type SCENE_DOC } from './documents.ts';
import { termBands, type TermBand, type TermBound } from './sparse-bounds.ts';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface SparseQuery {
  teamId: string;
  kind: typeof VIDEO_DOC | typeof SCENE_DOC;
  /** Query terms and their weights (query term frequency). */
  terms: Map<string, number>;
  limit: number;
  onlyVideoId?: string | undefined;
  excludeVideoId?: string | undefined;
  excludeSceneIdx?: number | undefined;
}

export interface SparseHit {
  videoId: string;
  sceneIdx?: number;
  /** BM25 divided by the query's upper bound (every term at infinite tf): 0..1. */
  score: number;
}

interface Scored extends Record<string, unknown> {
  video_id: string;
  scene_idx: number;
  score: number;
}

/** Postings read per term in round 1, as a multiple of k: enough for a theta near the answer's. */
const HEAD_FACTOR = 2;
const MIN_HEAD = 20;

const WEIGHTS = `
SELECT q.term,
       q.qw * ln(1 + (s.n_docs::float8 - t.df::float8 + 0.5) / (t.df::float8 + 0.5)) * ${BM25_K1 + 1} AS weight,
       t.df,
       (SELECT p.impact FROM search_postings p
        WHERE p.team_id = $1 AND p.kind = $2 AND p.term = q.term
        ORDER BY p.impact DESC LIMIT 1) AS top
FROM unnest($3::text[], $4::float8[]) AS q(term, qw)
JOIN search_terms t ON t.team_id = $1 AND t.kind = $2 AND t.term = q.term
JOIN search_corpus_stats s ON s.team_id = $1 AND s.kind = $2`;

/**
 * Exact scores of the candidates (a query of video_id, scene_idx) that are visible (finished
 * video, not the query item), best first. $1 terms, $2 weights, $3 excluded video, $4 excluded
 * scene, $5 limit; the candidate query's own parameters follow.
 */
function scoreSql(candidates: string): string {
  return `
WITH cand AS (
  SELECT DISTINCT c.video_id, c.scene_idx FROM (${candidates}) c
  JOIN videos v ON v.id = c.video_id AND v.status = 'completed'
  WHERE (c.video_id = $3::uuid AND ($4::int IS NULL OR c.scene_idx = $4::int)) IS NOT TRUE
), scored AS (
  SELECT c.video_id, c.scene_idx, s.score
  FROM cand c CROSS JOIN LATERAL (
    SELECT sum(($2::float8[])[array_position($1::text[], p.term)] * p.impact) AS score
    FROM search_postings p
    WHERE p.video_id = c.video_id AND p.scene_idx = c.scene_idx AND p.term = ANY($1::text[])
  ) s
)
SELECT video_id, scene_idx, score FROM scored
ORDER BY round(score::numeric, 9) DESC, video_id, scene_idx
LIMIT $5`;
}

/** Round 1: the first $8 postings of each term's list, in the index's order. */
const HEAD = scoreSql(`
  SELECT h.video_id, h.scene_idx FROM unnest($1::text[]) AS t(term)
  CROSS JOIN LATERAL (
    SELECT p.video_id, p.scene_idx FROM search_postings p
    WHERE p.team_id = $6 AND p.kind = $7 AND p.term = t.term
    ORDER BY p.impact DESC, p.video_id, p.scene_idx LIMIT $8) h`);

/** Round 2: per essential term, the postings above its band, and those in it up to the k-th id. */
const BANDS = scoreSql(`
  SELECT h.video_id, h.scene_idx FROM unnest($8::text[], $9::real[], $10::real[]) AS e(term, hi, lo)
  CROSS JOIN LATERAL (
    SELECT p.video_id, p.scene_idx FROM search_postings p
    WHERE p.team_id = $6 AND p.kind = $7 AND p.term = e.term AND p.impact > e.hi AND p.impact >= e.lo
    UNION ALL
    SELECT p.video_id, p.scene_idx FROM search_postings p
    WHERE p.team_id = $6 AND p.kind = $7 AND p.term = e.term AND p.impact <= e.hi AND p.impact >= e.lo
      AND (p.video_id, p.scene_idx) <= ($11::uuid, $12::int)) h`);

/** Scope "current": every posting of one video's scenes for the query terms. */
const ONE_VIDEO = scoreSql(`
  SELECT p.video_id, p.scene_idx FROM search_postings p
  WHERE p.video_id = $6 AND p.scene_idx >= 0 AND p.term = ANY($1::text[])`);

interface Weights {
  bounds: TermBound[];
  longest: number;
}

async function termWeights(q: Queryable, query: SparseQuery): Promise<Weights> {
  const terms = [...query.terms.keys()];
  const rows = await q.query<{ term: string; weight: number; df: number; top: number }>(WEIGHTS, [
    query.teamId,
    query.kind,
    terms,
    terms.map((t) => query.terms.get(t)!),
  ]);
  return {
    // A real arrives as its shortest decimal: fround gives back the exact float4.
    bounds: rows.map((r) => ({
      term: r.term,
      weight: Number(r.weight),
      top: Math.fround(Number(r.top)),
    })),
    longest: Math.max(0, ...rows.map((r) => Number(r.df))),
  };
}

export async function sparseSearch(q: Queryable, query: SparseQuery): Promise<SparseHit[]> {
  if (query.terms.size === 0) return [];
  const { bounds, longest } = await termWeights(q, query);
  if (bounds.length === 0) return [];
  const k = query.limit;
  const base = [
    bounds.map((b) => b.term),
    bounds.map((b) => b.weight),
    query.excludeVideoId ?? null,
    query.excludeSceneIdx ?? null,
    k,
  ];
  const run = (sql: string, more: unknown[]): Promise<Scored[]> =>
    q.query<Scored>(sql, [...base, ...more]);

  let rows: Scored[];
  if (query.onlyVideoId) {
    rows = await run(ONE_VIDEO, [query.onlyVideoId]);
  } else {
    const head = Math.max(MIN_HEAD, k * HEAD_FACTOR);
    rows = await run(HEAD, [query.teamId, query.kind, head]);
    // Every list read to its end: nothing else can match.
    if (longest > head) rows = await rerank(run, query, bounds, rows, k);
  }
  const upper = bounds.reduce((s, b) => s + b.weight, 0);
  return rows.map((r) => ({
    videoId: r.video_id,
    ...(query.kind === VIDEO_DOC ? {} : { sceneIdx: r.scene_idx }),
    score: upper > 0 ? Math.min(1, Number(r.score) / upper) : 0,
  }));
}

/** Round 2, from the k-th score of round 1 (or every posting when round 1 found fewer than k). */
async function rerank(
  run: (sql: string, more: unknown[]) => Promise<Scored[]>,
  query: SparseQuery,
  bounds: TermBound[],
  first: Scored[],
  k: number,
): Promise<Scored[]> {
  const kth = first.length >= k ? first[k - 1] : undefined;
  const bands: TermBand[] = kth
    ? termBands(bounds, Number(kth.score))
    : bounds.map((b) => ({ term: b.term, hi: -1, lo: 0 }));
  return run(BANDS, [
    query.teamId,
    query.kind,
    bands.map((b) => b.term),
    bands.map((b) => b.hi),
    bands.map((b) => b.lo),
    kth?.video_id ?? null,
    kth?.scene_idx ?? null,
  ]);
}

/**
 * The terms of an indexed document, as a query for "similar to this item": its most
 * distinctive terms (tf * idf), capped so the query stays fast.
 */
export async function documentTerms(
  q: Queryable,
  teamId: string,
  videoId: string,
  sceneIdx: number,
  maxTerms = 48,
): Promise<Map<string, number>> {
  const rows = await q.query<{ term: string; tf: number }>(
    `SELECT p.term, p.tf
     FROM search_postings p
     JOIN search_terms t ON t.team_id = p.team_id AND t.kind = p.kind AND t.term = p.term
     JOIN search_corpus_stats s ON s.team_id = p.team_id AND s.kind = p.kind
     WHERE p.video_id = $2 AND p.scene_idx = $3 AND p.team_id = $1
     ORDER BY p.tf * ln(1 + (s.n_docs::float8 - t.df::float8 + 0.5) / (t.df::float8 + 0.5)) DESC, p.term
     LIMIT $4`,
    [teamId, videoId, sceneIdx, maxTerms],
  );
  return new Map(rows.map((r) => [r.term, r.tf]));
}
