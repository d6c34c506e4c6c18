// Reading, listing and deleting videos and their scenes. Every query is scoped to a team so a
// caller can never reach another team's rows by id.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';
import type { FailureCode } from '../pipeline/failure.ts';
import type { PersonImage } from './faces.ts';

export type VideoStatus = 'uploading' | 'in_progress' | 'completed' | 'failed';

export interface VideoRow {
  id: string;
  team_id: string;
  owner_id: string | null;
  filename: string;
  title: string | null;
  summary: string | null;
  tags: unknown;
  status: string;
  created_at: Date;
  /** ISO local date-time with milliseconds, no zone (the column has none). */
  video_date: string | null;
  video_length: number | null;
  thumbnail_key: string | null;
  playable_key: string | null;
  source_key: string | null;
  trailer_key: string | null;
  report_key: string | null;
  is_trailer_creating: boolean;
  is_report_creating: boolean;
  /** Why it failed, for the app to word (null unless failed). */
  failure_code: FailureCode | null;
  /** The original file's size and SHA-256 (issue 42); bigint arrives as text from node-postgres. */
  file_size: string | number | null;
  content_sha256: string | null;
  /** The team video this one repeats (set when it failed as a duplicate). */
  duplicate_video: { id: string; title: string | null; filename: string } | null;
}

export interface VideoDetailRow extends VideoRow {
  output_data: unknown;
}

export interface SceneRow {
  idx: number;
  start_ms: number;
  end_ms: number;
  description: string;
  thumbnail_key: string | null;
  clip_key: string | null;
  frames: unknown;
}

/**
 * video_date of `videos v` as ISO local text, formatted in SQL so drivers cannot shift a
 * zone-less timestamp into local time.
 */
export const VIDEO_DATE_COLUMN = `to_char(v.video_date, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS video_date`;

const VIDEO_COLUMNS = `v.id, v.team_id, v.owner_id, v.filename, v.title, v.summary, v.tags, v.status,
  v.created_at, ${VIDEO_DATE_COLUMN}, v.video_length,
  v.thumbnail_key, v.playable_key, v.source_key, v.trailer_key, v.report_key,
  v.is_trailer_creating, v.is_report_creating, v.failure_code, v.file_size, v.content_sha256,
  CASE WHEN v.duplicate_of IS NULL THEN NULL ELSE (SELECT json_build_object('id', d.id,
    'title', d.title, 'filename', d.filename) FROM videos d WHERE d.id = v.duplicate_of) END
    AS duplicate_video`;

export type VideoSort = 'priority' | 'newest' | 'oldest';

const ORDER_BY: Record<VideoSort, string> = {
  // Work that needs attention (running, uploading, failed) before finished videos, newest first.
  priority: `CASE WHEN v.status = 'completed' THEN 1 ELSE 0 END, v.created_at DESC, v.id`,
  newest: 'v.created_at DESC, v.id',
  oldest: 'v.created_at ASC, v.id',
};

export interface ListVideosOptions {
  teamId: string;
  page: number;
  size: number;
  /** Lower-cased tag names; a video matches when it carries any of them. */
  tags: string[];
  sort: VideoSort;
}

export async function listVideos(
  q: Queryable,
  o: ListVideosOptions,
): Promise<{ rows: VideoRow[]; total: number }> {
  const params: unknown[] = [o.teamId];
  let where = 'v.team_id = $1';
  if (o.tags.length > 0) {
    params.push(o.tags);
    // Tags are stored as [{name}]; plain strings are tolerated too.
    where += ` AND EXISTS (SELECT 1 FROM jsonb_array_elements(v.tags) t
      WHERE lower(trim(CASE jsonb_typeof(t) WHEN 'object' THEN t->>'name' ELSE t#>>'{}' END))
        = ANY($${params.length}::text[]))`;
  }
  const count = `SELECT count(*)::int AS total FROM videos v WHERE ${where}`;
  // The page and the count in one statement (the count an init plan run once); a page past the
  // end has no row to carry it, and only then is it asked for alone.
  const rows = await q.query<VideoRow & { total: number } & Record<string, unknown>>(
    `SELECT ${VIDEO_COLUMNS}, (${count}) AS total FROM videos v WHERE ${where}
     ORDER BY ${ORDER_BY[o.sort]} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, o.size, (o.page - 1) * o.size],
  );
  const total = rows[0]?.total ?? (await one<{ total: number }>(q, count, params))?.total ?? 0;
  return { rows: rows.map(({ total: _, ...row }) => row), total };
}

export function findTeamVideo(
  q: Queryable,
  teamId: string,
  id: string,
): Promise<VideoDetailRow | undefined> {
  return one<VideoDetailRow & Record<string, unknown>>(
    q,
    `SELECT ${VIDEO_COLUMNS}, v.output_data FROM videos v WHERE v.id = $1 AND v.team_id = $2`,
    [id, teamId],
  );
}

/**
 * What a search hit's match is worked out from (search/match.ts), read with the hit's row: the
 * perceive step's record holds the objects seen and the lines read on screen.
 */
export interface HitTextColumns {
  /** Captions: a scene's, or a video's cues (its own record: no scene rows read), a line each. */
  hit_captions: string;
  /** People recognised (a scene's), or the video's people images and recognised people. */
  hit_people: string[];
  /** A scene's objects (string[]), or a video's perceived scenes ([{objects}]). */
  hit_objects: unknown;
  /** A scene's screen lines ([{text}]), or a video's ([[{text}]]). */
  hit_screen: unknown;
}

export type VideoHitRow = VideoRow & HitTextColumns;

/** Completed videos of a team among ids, in no particular order (search results). */
export function findVideoHits(q: Queryable, teamId: string, ids: string[]): Promise<VideoHitRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return q.query<VideoHitRow & Record<string, unknown>>(
    `SELECT ${VIDEO_COLUMNS},
       (SELECT coalesce(string_agg(c ->> 'text', E'\n'), '')
        FROM jsonb_array_elements(CASE jsonb_typeof(v.output_data -> 'captions')
          WHEN 'array' THEN v.output_data -> 'captions' ELSE '[]' END) c) AS hit_captions,
       ARRAY(SELECT name FROM video_people WHERE video_id = v.id
             UNION SELECT person_name FROM scene_faces
             WHERE video_id = v.id AND person_name IS NOT NULL) AS hit_people,
       ps.data -> 'scenes' AS hit_objects, ps.data -> 'screenText' AS hit_screen
     FROM videos v
     LEFT JOIN pipeline_steps ps ON ps.video_id = v.id AND ps.step = 'perceive'
     WHERE v.id = ANY($1::uuid[]) AND v.team_id = $2 AND v.status = 'completed'`,
    [ids, teamId],
  );
}

export interface VideoDetail {
  video: VideoDetailRow & { output_language: string };
  scenes: SceneRow[];
  /** The people images given at upload, with how many faces each showed. */
  people: PersonImage[];
  /** Each recognised person with the scenes where they appear, in order of first scene. */
  recognised: { name: string; scenes: number[] }[];
  /**
   * The reference picture of each recognised person: their people image of this video, else of
   * another of the team's videos (one with a face found first).
   */
  faces: { name: string; image_key: string }[];
  /**
   * What the perceive step recorded (pipeline_steps), by scene position: objects seen and the
   * lines read on screen. Null before that step has run.
   */
  perceived: { scenes: unknown; screen_text: unknown } | null;
}

const jsonList = (select: string): string =>
  `(SELECT coalesce(json_agg(x), '[]'::json) FROM (${select}) x)`;

/**
 * A team's video with its scenes and people, in one statement (one snapshot, one round trip
 * instead of four on the database's queue).
 */
export async function findVideoDetail(
  q: Queryable,
  teamId: string,
  id: string,
): Promise<VideoDetail | undefined> {
  const row = await one<
    VideoDetail['video'] &
      Pick<VideoDetail, 'scenes' | 'people' | 'recognised' | 'faces' | 'perceived'> &
      Record<string, unknown>
  >(
    q,
    `SELECT ${VIDEO_COLUMNS}, v.output_data, v.output_language,
       ${jsonList(`SELECT idx, start_ms, end_ms, description, thumbnail_key, clip_key, frames
                   FROM scenes WHERE video_id = v.id ORDER BY idx`)} AS scenes,
       ${jsonList(`SELECT position, name, image_key, faces_found
                   FROM video_people WHERE video_id = v.id ORDER BY position`)} AS people,
       ${jsonList(`SELECT person_name AS name, array_agg(DISTINCT scene_idx ORDER BY scene_idx) AS scenes
                   FROM scene_faces WHERE video_id = v.id AND person_name IS NOT NULL
                   GROUP BY person_name ORDER BY min(scene_idx), person_name`)} AS recognised,
       ${jsonList(`SELECT DISTINCT ON (p.name) p.name, p.image_key
                   FROM video_people p JOIN videos o ON o.id = p.video_id
                   WHERE o.team_id = v.team_id AND p.name IN (
                     SELECT person_name FROM scene_faces WHERE video_id = v.id)
                   ORDER BY p.name, (p.video_id = v.id) DESC,
                     (p.descriptor IS NOT NULL OR p.face_embedding IS NOT NULL) DESC, o.created_at`)} AS faces,
       (SELECT json_build_object('scenes', data -> 'scenes', 'screen_text', data -> 'screenText')
        FROM pipeline_steps WHERE video_id = v.id AND step = 'perceive') AS perceived
     FROM videos v WHERE v.id = $1 AND v.team_id = $2`,
    [id, teamId],
  );
  if (!row) return undefined;
  const { scenes, people, recognised, faces, perceived, ...video } = row;
  return { video, scenes, people, recognised, faces, perceived };
}

export interface SceneHitRow extends VideoRow, HitTextColumns {
  scene_idx: number;
  scene_description: string;
  scene_thumbnail_key: string | null;
  scene_start_ms: number;
}

/**
 * Scenes picked by (video, index) pairs, of the team's completed videos, each with its video
 * and the text its match is worked out from (scene search results), in one statement. The
 * perceive step records its scenes by position, which is the scene index (0, 1, ...).
 */
export function findSceneHits(
  q: Queryable,
  teamId: string,
  pairs: { videoId: string; index: number }[],
): Promise<SceneHitRow[]> {
  if (pairs.length === 0) return Promise.resolve([]);
  return q.query<SceneHitRow & Record<string, unknown>>(
    `SELECT ${VIDEO_COLUMNS}, s.idx AS scene_idx, s.description AS scene_description,
       s.thumbnail_key AS scene_thumbnail_key, s.start_ms AS scene_start_ms,
       s.captions AS hit_captions,
       ARRAY(SELECT DISTINCT f.person_name FROM scene_faces f
             WHERE f.video_id = s.video_id AND f.scene_idx = s.idx AND f.person_name IS NOT NULL
             ORDER BY f.person_name) AS hit_people,
       ps.data #> ARRAY['scenes', s.idx::text, 'objects'] AS hit_objects,
       ps.data #> ARRAY['screenText', s.idx::text] AS hit_screen
     FROM unnest($1::uuid[], $2::int[]) AS p(video_id, idx)
     JOIN scenes s ON s.video_id = p.video_id AND s.idx = p.idx
     JOIN videos v ON v.id = s.video_id
     LEFT JOIN pipeline_steps ps ON ps.video_id = s.video_id AND ps.step = 'perceive'
     WHERE v.team_id = $3 AND v.status = 'completed'`,
    [pairs.map((p) => p.videoId), pairs.map((p) => p.index), teamId],
  );
}

/** The owning team of a video, for checking asset signatures. */
export async function findVideoTeamId(q: Queryable, id: string): Promise<string | undefined> {
  const row = await one<{ team_id: string }>(q, 'SELECT team_id FROM videos WHERE id = $1', [id]);
  return row?.team_id;
}

/** Deletes the video (scenes, people, steps and search rows cascade); false when it was gone. */
export async function deleteVideoRow(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM videos WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}

/** Ids of videos uploaded before `before` (the retention limit) but `skip`, oldest first. */
export async function videoIdsCreatedBefore(
  q: Queryable,
  o: { before: Date; skip: readonly string[]; limit: number },
): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM videos WHERE created_at < $1 AND NOT (id = ANY($2::uuid[]))
     ORDER BY created_at LIMIT $3`,
    [o.before, o.skip, o.limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Moves a failed video back to in_progress in one statement so two retries cannot both win.
 * Answers the status before the change, or undefined when the video is not the team's.
 */
export async function markRetrying(
  q: Queryable,
  teamId: string,
  id: string,
): Promise<{ retried: boolean; status: string } | undefined> {
  const updated = await one<{ id: string }>(
    q,
    `UPDATE videos SET status = 'in_progress', failure_reason = NULL, failure_code = NULL,
       updated_at = now()
     WHERE id = $1 AND team_id = $2 AND status = 'failed' RETURNING id`,
    [id, teamId],
  );
  if (updated) return { retried: true, status: 'failed' };
  const row = await one<{ status: string }>(
    q,
    'SELECT status FROM videos WHERE id = $1 AND team_id = $2',
    [id, teamId],
  );
  return row ? { retried: false, status: row.status } : undefined;
}

/** Puts a video back to failed when a retry could not be queued. */
export async function markFailed(
  q: Queryable,
  id: string,
  reason: string,
  code: FailureCode,
): Promise<void> {
  await q.query(
    `UPDATE videos SET status = 'failed', failure_reason = $2, failure_code = $3, updated_at = now()
      WHERE id = $1`,
    [id, reason, code],
  );
}
