// Dense search: pgvector cosine distance, answered by the HNSW indexes of migration 005.
import type { Db } from '../db/db.ts';
import { toVectorLiteral } from '../db/vector.ts';

/** "Similar to" an indexed item: its stored vector (the video's, or its scene's). */
export interface DenseItem {
  videoId: string;
  sceneIdx?: number | undefined;
}

export interface DenseQuery {
  teamId: string;
  /** The query's vector, or the item whose stored vector it is. */
  vector: readonly number[] | DenseItem;
  /** How many nearest items to return. */
  limit: number;
  /** Restrict scene search to this video (scope current). */
  onlyVideoId?: string | undefined;
  /** Leave out the query item itself ("similar to"). */
  excludeVideoId?: string | undefined;
  excludeSceneIdx?: number | undefined;
}

export interface DenseHit {
  videoId: string;
  sceneIdx?: number;
  /** (1 + cosine) / 2: 0..1, higher is better. */
  score: number;
}

/**
 * The HNSW candidate list must be at least as long as the answer, or results go missing; longer,
 * fewer of the true nearest are missed. Embedded: 100 (recall@10 0.976 at 200k scenes, 0.990 at
 * 1M; each page a search visits beyond the buffers is a slow read through WebAssembly). PostgreSQL
 * walks the graph natively: 400 gives 0.998 at 200k where 40-300 stayed at 0.978
 * (bench/figures/search-latency.md, docs/decisions/scale-out-sizing.md).
 */
const MIN_EF_SEARCH: Record<Db['kind'], number> = { pglite: 100, postgres: 400 };
const MAX_EF_SEARCH = 1000;

const iterativeScanSupport = new WeakMap<Db, Promise<boolean>>();

/** pgvector 0.8+ can keep scanning the graph when filters drop candidates (team, status). */
function supportsIterativeScan(db: Db): Promise<boolean> {
  let found = iterativeScanSupport.get(db);
  if (!found) {
    found = db
      .query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'")
      .then((rows) => {
        const [major = 0, minor = 0] = (rows[0]?.v ?? '0.0').split('.').map(Number);
        return major > 0 || minor >= 8;
      });
    iterativeScanSupport.set(db, found);
  }
  return found;
}

/** The HNSW search's settings: its candidate list at least as long as the answer. */
function settings(db: Db, limit: number, iterative: boolean): Record<string, string> {
  const ef = Math.min(MAX_EF_SEARCH, Math.max(MIN_EF_SEARCH[db.kind], limit * 2));
  return {
    'hnsw.ef_search': String(ef),
    ...(iterative ? { 'hnsw.iterative_scan': 'relaxed_order' } : {}),
  };
}

/**
 * The query vector in SQL, its parameters added to `params` ($1 the team): a literal, or the
 * item's stored vector read in the same statement. One round trip: a "similar" query's dense half
 * no longer waits for the item's vector to come back to this process first (it did while the
 * keyword half scored here, the two then in series). An uncorrelated subquery, so that the HNSW
 * index still orders by it; an item not in the team, or without a vector yet, gives NULL, and
 * the statements below then no rows.
 */
function queryVector(v: DenseQuery['vector'], params: unknown[]): string {
  if (!('videoId' in v)) {
    params.push(toVectorLiteral(v));
    return `$${params.length}::vector`;
  }
  params.push(v.videoId);
  const id = `$${params.length}::uuid`;
  if (v.sceneIdx === undefined)
    return `(SELECT embedding FROM videos WHERE id = ${id} AND team_id = $1)`;
  params.push(v.sceneIdx);
  return `(SELECT i.embedding FROM scenes i JOIN videos iv ON iv.id = i.video_id
           WHERE i.video_id = ${id} AND i.idx = $${params.length}::int AND iv.team_id = $1)`;
}

function toScore(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance / 2));
}

export async function denseVideos(db: Db, query: DenseQuery): Promise<DenseHit[]> {
  const iterative = await supportsIterativeScan(db);
  const params: unknown[] = [query.teamId, query.excludeVideoId ?? null, query.limit];
  const v = queryVector(query.vector, params);
  const rows = await db.queryWith<{ video_id: string; dist: number }>(
    settings(db, query.limit, iterative),
    `SELECT id AS video_id, embedding <=> ${v} AS dist
       FROM videos
       WHERE team_id = $1 AND status = 'completed' AND embedding IS NOT NULL
         AND id IS DISTINCT FROM $2::uuid AND ${v} IS NOT NULL
       ORDER BY embedding <=> ${v}
       LIMIT $3`,
    params,
  );
  // relaxed_order may return near-ties out of order: sort exactly, ties by id for stability.
  return rows
    .sort((a, b) => a.dist - b.dist || a.video_id.localeCompare(b.video_id))
    .map((r) => ({ videoId: r.video_id, score: toScore(r.dist) }));
}

export async function denseScenes(db: Db, query: DenseQuery): Promise<DenseHit[]> {
  const params: unknown[] = [
    query.teamId,
    query.excludeVideoId ?? null,
    query.excludeSceneIdx ?? null,
    query.limit,
  ];
  const own = query.onlyVideoId ? params.push(query.onlyVideoId) : 0;
  const v = queryVector(query.vector, params);
  const where = `v.team_id = $1 AND v.status = 'completed' AND s.embedding IS NOT NULL
    AND (s.video_id = $2::uuid AND s.idx = $3::int) IS NOT TRUE AND ${v} IS NOT NULL`;
  type Row = { video_id: string; idx: number; dist: number };
  const rows = own
    ? // One video's scenes: an exact scan of a few rows beats the graph (and keeps recall 1).
      await db.query<Row>(
        `WITH own AS MATERIALIZED (
           SELECT s.video_id, s.idx, s.embedding <=> ${v} AS dist
           FROM scenes s JOIN videos v ON v.id = s.video_id
           WHERE s.video_id = $${own} AND ${where})
         SELECT * FROM own ORDER BY dist LIMIT $4`,
        params,
      )
    : await db.queryWith<Row>(
        settings(db, query.limit, await supportsIterativeScan(db)),
        `SELECT s.video_id, s.idx, s.embedding <=> ${v} AS dist
         FROM scenes s JOIN videos v ON v.id = s.video_id
         WHERE ${where}
         ORDER BY s.embedding <=> ${v}
         LIMIT $4`,
        params,
      );
  return rows
    .sort((a, b) => a.dist - b.dist || a.video_id.localeCompare(b.video_id) || a.idx - b.idx)
    .map((r) => ({ videoId: r.video_id, sceneIdx: r.idx, score: toScore(r.dist) }));
}
