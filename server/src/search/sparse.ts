// Keyword search: Okapi BM25 in plain SQL over search_postings (migrations 005 and 009), pruned so
// a query reads the heads of its terms' lists instead of every posting (docs/decisions.md,
// "Keyword search at scale"). Document frequencies come from search_terms; each posting carries
// its impact (BM25's tf part at the stored average length), so a score is sum(weight * impact).
// Round 1 reads the rarest lists whole and the head of the others (threshold algorithm: a
// document not read scores at most the sum of weight * the impact last read in each list), and
// scores exactly only the documents whose bound reaches the k-th score known. When what was not
// read could still reach the k-th score, round 2 reads, per term, only the postings that can
// (sparse-bounds.ts). The answer is the exact top k. Scores are rounded before ordering and ties
// are broken by id, so PGlite and PostgreSQL give the same ranking.
import type { Db, Queryable } from '../db/db.ts';
import { VIDEO_DOC, type SCENE_DOC } from './documents.ts';
import { SCORE_EPS, termBands, type TermBand } from './sparse-bounds.ts';

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
  /** Round 1's depths instead of the defaults (tests read little, so round 2 runs too). */
  roundOne?: { head: number; readWhole: number } | undefined;
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
  /** Round 1: the bound on the score of a document not read, and each term's cut. */
  u: number | null;
  cuts: number[] | null;
}

/**
 * Postings read per term in round 1 (lists not read whole), as a multiple of k: past the few
 * postings of high tf, so that the cut, and with it the bound on what was not read, is low.
 */
const HEAD_FACTOR = 2;
const MIN_HEAD = 160;
/**
 * Round 1 reads whole the shortest lists, rarest first, up to this many postings in all: reading
 * a posting costs ~1.5 us, scoring a document by its key ~30 us (200k scenes, PGlite), and a
 * list read whole drops out of the bound on the documents not seen, which prunes the most.
 */
export const READ_WHOLE = 30_000;

const WEIGHTS = `
SELECT q.term,
       q.qw * ln(1 + (s.n_docs::float8 - t.df::float8 + 0.5) / (t.df::float8 + 0.5)) * ${BM25_K1 + 1} AS weight,
       t.df
FROM unnest($3::text[], $4::float8[]) AS q(term, qw)
JOIN search_terms t ON t.team_id = $1 AND t.kind = $2 AND t.term = q.term
JOIN search_corpus_stats s ON s.team_id = $1 AND s.kind = $2`;

/** A visible document: a finished video, and not the query item ($3 video, $4 scene). */
const VISIBLE = (d: string): string => `
  EXISTS (SELECT 1 FROM videos v WHERE v.id = ${d}.video_id AND v.status = 'completed')
  AND (${d}.video_id = $3::uuid AND ($4::int IS NULL OR ${d}.scene_idx = $4::int)) IS NOT TRUE`;

/**
 * Exact scores of the candidates that are visible, best first, and the extra columns. A
 * candidate (video_id, scene_idx, lb, exact) whose score is known already (exact: every term
 * that could add to it was read) keeps lb; the others are scored by their primary key. $1 terms,
 * $2 weights, $3 excluded video, $4 excluded scene, $5 limit; the candidate query's own
 * parameters follow.
 */
function scoreSql(
  candidates: string,
  withCte = '',
  extra = 'NULL::float8 AS u, NULL::real[] AS cuts',
): string {
  return `
WITH ${withCte} cand AS (
  SELECT c.video_id, c.scene_idx, bool_or(c.exact) AS exact, max(c.lb) AS lb
  FROM (${candidates}) c
  WHERE ${VISIBLE('c')}
  GROUP BY c.video_id, c.scene_idx
), scored AS (
  SELECT c.video_id, c.scene_idx, CASE WHEN c.exact THEN c.lb ELSE (
    SELECT sum(($2::float8[])[array_position($1::text[], p.term)] * p.impact)
    FROM search_postings p
    WHERE p.video_id = c.video_id AND p.scene_idx = c.scene_idx AND p.term = ANY($1::text[])
  ) END AS score
  FROM cand c
)
SELECT video_id, scene_idx, score, ${extra} FROM scored
ORDER BY round(score::numeric, 9) DESC, video_id, scene_idx
LIMIT $5`;
}

/**
 * Postings read (video_id, scene_idx, weight * impact, weight * cap), grouped by document: a
 * document's score is at least lb, and at most ub = lb + what its unread terms could add (each
 * at most its cap, the caps summing to u; open terms: those of positive cap, which it was not
 * read in). Only documents whose ub reaches the k-th lb of the visible ones (or theta) can be in
 * the top k: those are the candidates, scored exactly unless nothing was left open.
 */
function pruneSql(read: string, theta: string, u: string, open: string): string {
  return `
read AS (${read}),
docs AS (
  SELECT video_id, scene_idx, sum(wi) AS lb, sum(wi - wc) + ${u} AS ub,
         count(*) FILTER (WHERE wc > 0) = ${open} AS exact
  FROM read GROUP BY video_id, scene_idx
),
kth AS (
  -- In lb order first (OFFSET 0 keeps the filter out): videos are looked up only until k pass.
  SELECT coalesce((SELECT d.lb FROM (SELECT * FROM docs ORDER BY lb DESC OFFSET 0) d
                   WHERE ${VISIBLE('d')} ORDER BY d.lb DESC OFFSET $5 - 1 LIMIT 1), ${theta}) AS l
),
surv AS (
  SELECT d.video_id, d.scene_idx, d.lb, d.exact FROM docs d, kth
  WHERE d.ub >= greatest(kth.l, ${theta}) - ${SCORE_EPS}
),`;
}

/**
 * Round 1: per term, the first $8 postings of its list in the index's order (the whole list
 * when $8 exceeds it). cut, the impact of a list's last posting read (0 when it was read to its
 * end), bounds its impact in every document not read; u = sum(weight * cut) bounds their score.
 */
const HEAD = scoreSql(
  'SELECT * FROM surv',
  `heads AS (
  SELECT t.term, t.w, t.d, h.video_id, h.scene_idx, h.impact
  FROM unnest($1::text[], $2::float8[], $8::int[]) AS t(term, w, d)
  CROSS JOIN LATERAL (
    SELECT p.video_id, p.scene_idx, p.impact FROM search_postings p
    WHERE p.team_id = $6 AND p.kind = $7 AND p.term = t.term
    ORDER BY p.impact DESC, p.video_id, p.scene_idx LIMIT t.d) h
),
cuts AS (
  SELECT term, w, CASE WHEN count(*) < min(d) THEN 0 ELSE min(impact) END AS cut
  FROM heads GROUP BY term, w
),
bound AS (SELECT sum(w * cut) AS u FROM cuts),
${pruneSql(
  `SELECT h.video_id, h.scene_idx, h.w * h.impact AS wi, c.w * c.cut AS wc
   FROM heads h JOIN cuts c ON c.term = h.term`,
  `'-infinity'::float8`,
  '(SELECT u FROM bound)',
  '(SELECT count(*) FROM cuts WHERE cut > 0)',
)}`,
  `(SELECT u FROM bound) AS u,
   (SELECT array_agg(c.cut ORDER BY array_position($1::text[], c.term)) FROM cuts c) AS cuts`,
);

/**
 * Round 2: per essential term, the postings above its band, and those in it up to the k-th id
 * ($11, $12); $13 the caps of every term (an essential term's band floor, another's cut), $14
 * theta, and round 1's top k ($15, $16), which the bands need not read again.
 */
const BANDS = scoreSql(
  `SELECT * FROM surv
   UNION ALL
   SELECT f.video_id, f.scene_idx, NULL, false FROM unnest($15::uuid[], $16::int[]) AS f(video_id, scene_idx)`,
  pruneSql(
    `SELECT h.video_id, h.scene_idx, c.w * h.impact AS wi, c.w * c.cap AS wc
     FROM unnest($8::text[], $9::real[], $10::real[]) AS e(term, hi, lo)
     JOIN unnest($1::text[], $2::float8[], $13::real[]) AS c(term, w, cap) ON c.term = e.term
     CROSS JOIN LATERAL (
       SELECT p.video_id, p.scene_idx, p.impact FROM search_postings p
       WHERE p.team_id = $6 AND p.kind = $7 AND p.term = e.term AND p.impact > e.hi AND p.impact >= e.lo
       UNION ALL
       SELECT p.video_id, p.scene_idx, p.impact FROM search_postings p
       WHERE p.team_id = $6 AND p.kind = $7 AND p.term = e.term AND p.impact <= e.hi AND p.impact >= e.lo
         AND (p.video_id, p.scene_idx) <= ($11::uuid, $12::int)) h`,
    '$14::float8',
    `(SELECT sum(w * cap) FROM unnest($2::float8[], $13::real[]) AS c(w, cap))`,
    '(SELECT count(*) FROM unnest($13::real[]) AS c(cap) WHERE cap > 0)',
  ),
);

/** Scope "current": every posting of one video's scenes for the query terms. */
const ONE_VIDEO = scoreSql(`
  SELECT p.video_id, p.scene_idx, NULL::float8 AS lb, false AS exact FROM search_postings p
  WHERE p.video_id = $6 AND p.scene_idx >= 0 AND p.term = ANY($1::text[])`);

interface Weighted {
  term: string;
  weight: number;
  df: number;
}

async function termWeights(q: Queryable, query: SparseQuery): Promise<Weighted[]> {
  const terms = [...query.terms.keys()];
  const rows = await q.query<{ term: string; weight: number; df: number }>(WEIGHTS, [
    query.teamId,
    query.kind,
    terms,
    terms.map((t) => query.terms.get(t)!),
  ]);
  return rows.map((r) => ({ term: r.term, weight: Number(r.weight), df: Number(r.df) }));
}

/** Round 1's depth per term: the rarest lists whole while they fit in READ_WHOLE, else the head. */
function headDepths(terms: Weighted[], head: number, budget: number): number[] {
  const byDf = [...terms].sort((a, b) => a.df - b.df);
  const whole = new Set<string>();
  let sum = 0;
  for (const t of byDf) {
    if (t.df <= head || sum + t.df > budget) continue;
    sum += t.df;
    whole.add(t.term);
  }
  // One more than the list's length, so that reading it whole shows as fewer rows than asked.
  return terms.map((t) => (whole.has(t.term) || t.df <= head ? t.df + 1 : head));
}

/**
 * A query of a few terms (typed text) runs the pruned statements on the plan made once for any
 * values (a kept statement's generic plan): planning them afresh for each run, as PostgreSQL
 * chose to, was 40% of their time on PGlite. A query of many terms ("similar to" an item) keeps
 * a plan made for its values (docs/decisions.md, "Load bench").
 */
const PLAN_ONCE_TERMS = 8;
const PLAN_ONCE = { plan_cache_mode: 'force_generic_plan' };

export async function sparseSearch(q: Db, query: SparseQuery): Promise<SparseHit[]> {
  if (query.terms.size === 0) return [];
  const terms = await termWeights(q, query);
  if (terms.length === 0) return [];
  const k = query.limit;
  const base = [
    terms.map((b) => b.term),
    terms.map((b) => b.weight),
    query.excludeVideoId ?? null,
    query.excludeSceneIdx ?? null,
    k,
  ];
  const settings = terms.length <= PLAN_ONCE_TERMS ? PLAN_ONCE : {};
  const run = (sql: string, more: unknown[]): Promise<Scored[]> =>
    q.queryWith<Scored>(settings, sql, [...base, ...more]);

  let rows: Scored[];
  if (query.onlyVideoId) {
    rows = await run(ONE_VIDEO, [query.onlyVideoId]);
  } else {
    const head = query.roundOne?.head ?? Math.max(MIN_HEAD, k * HEAD_FACTOR);
    const depths = headDepths(terms, head, query.roundOne?.readWhole ?? READ_WHOLE);
    rows = await run(HEAD, [query.teamId, query.kind, depths]);
    const theta = rows.length >= k ? Number(rows[k - 1]!.score) : -Infinity;
    // Nothing unread can reach the k-th score (u is 0 when every list was read whole).
    const unread = rows.length > 0 ? Number(rows[0]!.u) : Infinity;
    if (!(unread < theta - SCORE_EPS) && unread > 0) {
      rows = await rerank(run, query, terms, rows, k);
    }
  }
  const upper = terms.reduce((s, b) => s + b.weight, 0);
  return rows.map((r) => ({
    videoId: r.video_id,
    ...(query.kind === VIDEO_DOC ? {} : { sceneIdx: r.scene_idx }),
    score: upper > 0 ? Math.min(1, Number(r.score) / upper) : 0,
  }));
}
/**
 * Round 2, from round 1's k-th score theta and cuts (or every posting when round 1 found fewer
 * than k): a document not read in round 1 has, in each list, an impact at most the list's cut.
 */
async function rerank(
  run: (sql: string, more: unknown[]) => Promise<Scored[]>,
  query: SparseQuery,
  terms: Weighted[],
  first: Scored[],
  k: number,
): Promise<Scored[]> {
  const kth = first.length >= k ? first[k - 1] : undefined;
  // A real arrives as its shortest decimal: fround gives back the exact float4.
  const cuts = (first[0]?.cuts ?? []).map((c) => Math.fround(Number(c)));
  const theta = kth ? Number(kth.score) : -Infinity;
  const bands: TermBand[] = kth
    ? termBands(
        terms.map((t, i) => ({ term: t.term, weight: t.weight, top: cuts[i] ?? 1 })),
        theta,
      )
    : terms.map((t) => ({ term: t.term, hi: -1, lo: 0 }));
  // A document outside an essential term's band has an impact below its floor there.
  const floor = new Map(bands.map((b) => [b.term, b.lo]));
  const caps = terms.map((t, i) => floor.get(t.term) ?? cuts[i] ?? 1);
  return run(BANDS, [
    query.teamId,
    query.kind,
    bands.map((b) => b.term),
    bands.map((b) => b.hi),
    bands.map((b) => b.lo),
    kth?.video_id ?? null,
    kth?.scene_idx ?? null,
    caps,
    kth ? theta : '-infinity',
    first.slice(0, k).map((r) => r.video_id),
    first.slice(0, k).map((r) => r.scene_idx),
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
