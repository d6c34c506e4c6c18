// Nothing twice (issue 42): the SQL that finds a team's videos by the size and SHA-256 of their
// original file. Which videos are "in the archive" is decided here, once, for check-files, the
// create call's 409 and the pipeline's duplicate check.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

/**
 * A video counts as in the archive once its file has arrived (past 'uploading', or the server has
 * read and hashed its bytes), unless it failed in a way that left no file of its own behind: too
 * large (deleted), missing, or a duplicate of another one (that one is the archive's copy).
 * Deleted videos have no row.
 */
export const IN_ARCHIVE = `(v.status <> 'uploading' OR v.content_hashed_at IS NOT NULL)
  AND NOT (v.status = 'failed' AND coalesce(v.failure_code, '') IN ('duplicate', 'file-missing', 'too-large'))`;

export interface ArchivedVideo {
  id: string;
  title: string | null;
  filename: string;
}

/** Which of these sizes some team video in the archive has. */
export async function sizesInArchive(
  q: Queryable,
  teamId: string,
  sizes: readonly number[],
): Promise<Set<number>> {
  if (sizes.length === 0) return new Set();
  const rows = await q.query<{ file_size: string | number }>(
    `SELECT DISTINCT v.file_size FROM videos v
     WHERE v.team_id = $1 AND v.file_size = ANY($2::bigint[]) AND ${IN_ARCHIVE}`,
    [teamId, [...new Set(sizes)]],
  );
  return new Set(rows.map((r) => Number(r.file_size)));
}

/**
 * The archive's video of each of these digests: the first whose bytes the server read (then the
 * oldest), which is the one later copies are duplicates of.
 */
export async function videosByDigest(
  q: Queryable,
  teamId: string,
  digests: readonly string[],
  opts: { exceptOwner?: string; exceptIdempotencyKey?: string | null } = {},
): Promise<Map<string, ArchivedVideo>> {
  if (digests.length === 0) return new Map();
  const params: unknown[] = [teamId, [...new Set(digests)]];
  let except = '';
  if (opts.exceptOwner && opts.exceptIdempotencyKey) {
    // A repeated create (same Idempotency-Key) must not conflict with the video it made itself.
    params.push(opts.exceptOwner, opts.exceptIdempotencyKey);
    except = `AND NOT (v.owner_id IS NOT DISTINCT FROM $3::uuid AND v.idempotency_key IS NOT DISTINCT FROM $4)`;
  }
  const rows = await q.query<ArchivedVideo & { content_sha256: string } & Record<string, unknown>>(
    `SELECT DISTINCT ON (v.content_sha256) v.content_sha256, v.id, v.title, v.filename
     FROM videos v
     WHERE v.team_id = $1 AND v.content_sha256 = ANY($2::text[]) AND ${IN_ARCHIVE} ${except}
     ORDER BY v.content_sha256, v.content_hashed_at NULLS LAST, v.created_at, v.id`,
    params,
  );
  return new Map(
    rows.map((r) => [r.content_sha256, { id: r.id, title: r.title, filename: r.filename }]),
  );
}

/**
 * Records the server's own digest and size of a video's file (replacing the client's claim). The
 * first time only sets content_hashed_at: a file received again keeps its place in the order.
 */
export async function recordContentHash(
  q: Queryable,
  videoId: string,
  sha256: string,
  size: number,
): Promise<void> {
  await q.query(
    `UPDATE videos SET content_sha256 = $2, file_size = $3,
       content_hashed_at = CASE WHEN content_sha256 IS NOT DISTINCT FROM $2
         THEN coalesce(content_hashed_at, now()) ELSE now() END
     WHERE id = $1`,
    [videoId, sha256, size],
  );
}

/**
 * A video whose file has arrived and whose analysis has ended (so no pipeline step is about to
 * hash it) but that has no server digest: stored before migration 018, for the back-fill.
 */
const UNHASHED_STORED = `v.content_hashed_at IS NULL AND v.source_key IS NOT NULL
  AND v.status IN ('completed', 'failed') AND ${IN_ARCHIVE}`;

export interface UnhashedVideo {
  id: string;
  source_key: string;
}

/**
 * The next `limit` such videos after the id `after`, by id (a key that survives the round trip
 * exactly, unlike a timestamp's microseconds in a JS Date).
 */
export function unhashedStoredVideos(
  q: Queryable,
  limit: number,
  after?: string,
): Promise<UnhashedVideo[]> {
  return q.query<UnhashedVideo & Record<string, unknown>>(
    `SELECT v.id, v.source_key FROM videos v
     WHERE ${UNHASHED_STORED} AND ($2::uuid IS NULL OR v.id > $2::uuid)
     ORDER BY v.id LIMIT $1`,
    [limit, after ?? null],
  );
}

/**
 * Records the back-fill's digest and size of a stored file, only if nothing recorded one since
 * (a retry's analysis, another worker): answers whether this call did. Marks nothing a duplicate.
 */
export async function recordBackfilledHash(
  q: Queryable,
  videoId: string,
  sha256: string,
  size: number,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE videos v SET content_sha256 = $2, file_size = $3, content_hashed_at = now()
     WHERE v.id = $1 AND ${UNHASHED_STORED} RETURNING v.id`,
    [videoId, sha256, size],
  );
  return rows.length > 0;
}

/** Forgets the server's digest (the file was replaced by a transfer that was not hashed). */
export async function clearContentHash(q: Queryable, videoId: string): Promise<void> {
  await q.query(`UPDATE videos SET content_hashed_at = NULL WHERE id = $1`, [videoId]);
}

export interface VideoDigest {
  team_id: string;
  content_sha256: string | null;
  content_hashed_at: Date | null;
  allow_duplicate: boolean;
  created_at: Date;
}

export function videoDigest(q: Queryable, videoId: string): Promise<VideoDigest | undefined> {
  return one<VideoDigest & Record<string, unknown>>(
    q,
    `SELECT team_id, content_sha256, content_hashed_at, allow_duplicate, created_at
     FROM videos WHERE id = $1`,
    [videoId],
  );
}

/**
 * The team's video whose bytes this one repeats: same server digest, read before this one's
 * (then created before it), and in the archive. Two copies racing through their analyses agree
 * on which is the original, since both compare the same recorded times.
 */
export function originalOf(q: Queryable, videoId: string): Promise<ArchivedVideo | undefined> {
  return one<ArchivedVideo & Record<string, unknown>>(
    q,
    `SELECT v.id, v.title, v.filename
     FROM videos me JOIN videos v
       ON v.team_id = me.team_id AND v.content_sha256 = me.content_sha256 AND v.id <> me.id
     WHERE me.id = $1 AND me.content_hashed_at IS NOT NULL AND v.content_hashed_at IS NOT NULL
       AND (v.content_hashed_at, v.created_at, v.id) < (me.content_hashed_at, me.created_at, me.id)
       AND ${IN_ARCHIVE}
     ORDER BY v.content_hashed_at, v.created_at, v.id LIMIT 1`,
    [videoId],
  );
}

/** Marks the video as a copy of `original` (or clears it with null). */
export async function setDuplicateOf(
  q: Queryable,
  videoId: string,
  original: string | null,
): Promise<void> {
  await q.query('UPDATE videos SET duplicate_of = $2 WHERE id = $1', [videoId, original]);
}

/** The uploader keeps these bytes even though the team has them (a retry that asks for it). */
export async function allowDuplicate(q: Queryable, videoId: string): Promise<void> {
  await q.query('UPDATE videos SET allow_duplicate = true WHERE id = $1', [videoId]);
}
