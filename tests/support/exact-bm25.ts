// The straightforward exact BM25 that the pruned keyword search (server/src/search/sparse.ts) must
// agree with: every posting of every query term scored, document frequencies counted from the
// postings and the live average document length, then sorted. Slow on purpose; the test of the
// ranking and bench/search-latency.ts compare the fast path with it.
import type { Queryable } from '../../server/src/db/db.ts';
import { BM25_B, BM25_K1, type SparseQuery } from '../../server/src/search/sparse.ts';

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
), scored AS (
  SELECT p.video_id, p.scene_idx,
         sum(w.idf * p.tf * ${BM25_K1 + 1} / (p.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * p.doc_len / st.avgdl))) AS score
  FROM search_postings p JOIN w ON w.term = p.term CROSS JOIN st
  WHERE p.team_id = $1 AND p.kind = $2
    AND ($6::uuid IS NULL OR p.video_id = $6::uuid)
    AND (p.video_id = $7::uuid AND ($8::int IS NULL OR p.scene_idx = $8::int)) IS NOT TRUE
    AND p.video_id NOT IN (SELECT id FROM videos WHERE team_id = $1 AND status <> 'completed')
  GROUP BY p.video_id, p.scene_idx
)
SELECT video_id, scene_idx, score FROM scored
ORDER BY round(score::numeric, 9) DESC, video_id, scene_idx
LIMIT $5`;

export interface ExactHit {
  videoId: string;
  sceneIdx: number;
  score: number;
}

/** A keyword query with its terms listed (not an item's, chosen by the search itself). */
export type ListedQuery = SparseQuery & { terms: Map<string, number> };

export async function exactBm25(q: Queryable, query: ListedQuery): Promise<ExactHit[]> {
  if (query.terms.size === 0) return [];
  const terms = [...query.terms.keys()];
  const rows = await q.query<{ video_id: string; scene_idx: number; score: number }>(SQL, [
    query.teamId,
    query.kind,
    terms,
    terms.map((t) => query.terms.get(t)!),
    query.limit,
    query.onlyVideoId ?? null,
    query.excludeVideoId ?? null,
    query.excludeSceneIdx ?? null,
  ]);
  return rows.map((r) => ({ videoId: r.video_id, sceneIdx: r.scene_idx, score: Number(r.score) }));
}

/** Share of the exact top k that the fast answer holds (1 when both are empty). */
export function recallAtK(
  exact: readonly { videoId: string; sceneIdx?: number }[],
  fast: readonly { videoId: string; sceneIdx?: number }[],
): { hits: number; of: number } {
  const key = (h: { videoId: string; sceneIdx?: number }): string =>
    `${h.videoId}#${h.sceneIdx ?? -1}`;
  const got = new Set(fast.map(key));
  return { hits: exact.filter((h) => got.has(key(h))).length, of: exact.length };
}
