// Keyword search: Okapi BM25 computed in plain SQL over search_postings (migration 005).
// The same SQL runs on PGlite and PostgreSQL; scores are rounded before ordering and ties
// are broken by id, so both engines give the same ranking.
import type { Queryable } from '../db/db.ts';
import { VIDEO_DOC, type SCENE_DOC } from './documents.ts';

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

const SQL = `
WITH q AS (
  SELECT term, qw FROM unnest($3::text[], $4::float8[]) AS t(term, qw)
), st AS (
  SELECT n_docs::float8 AS n, total_len::float8 / greatest(n_docs, 1) AS avgdl
  FROM search_corpus_stats WHERE team_id = $1 AND kind = $2
), df AS (
  SELECT p.term, count(*)::float8 AS df
  FROM search_postings p JOIN q ON q.term = p.term
  WHERE p.team_id = $1 AND p.kind = $2
  GROUP BY p.term
), w AS (
  SELECT q.term, q.qw * ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5)) AS idf
  FROM q JOIN df ON df.term = q.term CROSS JOIN st
), hidden AS (
  SELECT id FROM videos WHERE team_id = $1 AND status <> 'completed'
), scored AS (
  SELECT p.video_id, p.scene_idx,
         sum(w.idf * p.tf * ${BM25_K1 + 1} / (p.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * p.doc_len / st.avgdl))) AS score
  FROM search_postings p JOIN w ON w.term = p.term CROSS JOIN st
  WHERE p.team_id = $1 AND p.kind = $2
    AND ($6::uuid IS NULL OR p.video_id = $6::uuid)
    AND (p.video_id = $7::uuid AND ($8::int IS NULL OR p.scene_idx = $8::int)) IS NOT TRUE
    AND p.video_id NOT IN (SELECT id FROM hidden)
  GROUP BY p.video_id, p.scene_idx
)
SELECT video_id, scene_idx, score,
       (SELECT sum(idf) FROM w) * ${BM25_K1 + 1} AS upper
FROM scored
ORDER BY round(score::numeric, 9) DESC, video_id, scene_idx
LIMIT $5`;

export async function sparseSearch(q: Queryable, query: SparseQuery): Promise<SparseHit[]> {
  if (query.terms.size === 0) return [];
  const terms = [...query.terms.keys()];
  const rows = await q.query<{ video_id: string; scene_idx: number; score: number; upper: number }>(
    SQL,
    [
      query.teamId,
      query.kind,
      terms,
      terms.map((t) => query.terms.get(t)!),
      query.limit,
      query.onlyVideoId ?? null,
      query.excludeVideoId ?? null,
      query.excludeSceneIdx ?? null,
    ],
  );
  return rows.map((r) => ({
    videoId: r.video_id,
    ...(query.kind === VIDEO_DOC ? {} : { sceneIdx: r.scene_idx }),
    score: r.upper > 0 ? Math.min(1, Number(r.score) / Number(r.upper)) : 0,
  }));
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
    `WITH st AS (
       SELECT n_docs::float8 AS n FROM search_corpus_stats WHERE team_id = $1 AND kind = $4
     ), mine AS (
       SELECT term, tf FROM search_postings
       WHERE team_id = $1 AND kind = $4 AND video_id = $2 AND scene_idx = $3
     ), df AS (
       SELECT p.term, count(*)::float8 AS df FROM search_postings p JOIN mine USING (term)
       WHERE p.team_id = $1 AND p.kind = $4 GROUP BY p.term
     )
     SELECT mine.term, mine.tf
     FROM mine JOIN df USING (term) CROSS JOIN st
     ORDER BY mine.tf * ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5)) DESC, mine.term
     LIMIT $5`,
    [teamId, videoId, sceneIdx, sceneIdx < 0 ? 0 : 1, maxTerms],
  );
  return new Map(rows.map((r) => [r.term, r.tf]));
}
