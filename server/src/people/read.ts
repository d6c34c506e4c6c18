// The People pages' reads (issue 30): lists of people, one person, their scenes and faces. Every
// read is bounded to the caller's team; counts come from the people rows (people_refresh).
import type { Queryable } from '../db/db.ts';

export type PersonRow = {
  id: string;
  team_id: string;
  name: string | null;
  face_count: number;
  scene_count: number;
  video_count: number;
  /** Storage key of the cover face's crop, or of a people image that named the person. */
  cover_key: string | null;
  /** Up to 4 face crops' storage keys, the cover first. */
  face_keys: string[];
};

const SUMMARY = `
  SELECT p.id, p.team_id, p.name, p.face_count, p.scene_count, p.video_count,
         COALESCE(
           (SELECT c.crop_key FROM scene_faces c WHERE c.id = p.cover_face_id),
           (SELECT v.image_key FROM video_people v WHERE v.person_id = p.id
            ORDER BY v.video_id, v.position LIMIT 1)
         ) AS cover_key,
         ARRAY(
           SELECT f.crop_key FROM scene_faces f
           WHERE f.person_id = p.id AND f.crop_key IS NOT NULL
           ORDER BY (f.id = p.cover_face_id) DESC NULLS LAST, f.id LIMIT 4
         ) AS face_keys
  FROM people p`;

export async function findPerson(
  q: Queryable,
  teamId: string,
  id: string,
): Promise<PersonRow | undefined> {
  const [row] = await q.query<PersonRow>(`${SUMMARY} WHERE p.id = $1 AND p.team_id = $2`, [
    id,
    teamId,
  ]);
  return row;
}

/** A group is listed once its faces are seen in at least this many scenes. */
export const GROUP_MIN_SCENES = 2;

export async function listPeople(
  q: Queryable,
  teamId: string,
  opts: { named: boolean; page: number; size: number },
): Promise<{ rows: PersonRow[]; total: number }> {
  const where = opts.named
    ? 'p.team_id = $1 AND p.name IS NOT NULL'
    : `p.team_id = $1 AND p.name IS NULL AND p.scene_count >= ${GROUP_MIN_SCENES}`;
  const order = opts.named ? 'lower(p.name), p.id' : 'p.face_count DESC, p.created_at DESC, p.id';
  const rows = await q.query<PersonRow>(
    `${SUMMARY} WHERE ${where} ORDER BY ${order} LIMIT $2 OFFSET $3`,
    [teamId, opts.size, (opts.page - 1) * opts.size],
  );
  const [count] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM people p WHERE ${where}`,
    [teamId],
  );
  return { rows, total: count?.n ?? 0 };
}

export type PersonSceneRow = {
  video_id: string;
  video_title: string;
  scene_index: number;
  start_ms: number;
  end_ms: number;
  thumbnail_key: string | null;
  face_id: string;
  crop_key: string | null;
};

/** The scenes that show the person: newest video first, then scene order. */
export async function personScenes(
  q: Queryable,
  personId: string,
  page: number,
  size: number,
): Promise<PersonSceneRow[]> {
  return q.query<PersonSceneRow>(
    `SELECT f.video_id, COALESCE(NULLIF(v.title, ''), v.filename) AS video_title,
            f.scene_idx AS scene_index, s.start_ms, s.end_ms, s.thumbnail_key,
            f.id AS face_id, f.crop_key
     FROM (SELECT DISTINCT ON (video_id, scene_idx) id, video_id, scene_idx, crop_key
           FROM scene_faces WHERE person_id = $1 ORDER BY video_id, scene_idx, id) f
     JOIN videos v ON v.id = f.video_id
     JOIN scenes s ON s.video_id = f.video_id AND s.idx = f.scene_idx
     ORDER BY v.created_at DESC, v.id, f.scene_idx
     LIMIT $2 OFFSET $3`,
    [personId, size, (page - 1) * size],
  );
}

export type PersonFaceRow = {
  id: string;
  crop_key: string | null;
  video_id: string;
  video_title: string;
  scene_index: number;
};

/** The person's faces, oldest first (the order they were found in). */
export async function personFaces(
  q: Queryable,
  personId: string,
  page: number,
  size: number,
): Promise<PersonFaceRow[]> {
  return q.query<PersonFaceRow>(
    `SELECT f.id, f.crop_key, f.video_id, COALESCE(NULLIF(v.title, ''), v.filename) AS video_title,
            f.scene_idx AS scene_index
     FROM scene_faces f JOIN videos v ON v.id = f.video_id
     WHERE f.person_id = $1
     ORDER BY f.id LIMIT $2 OFFSET $3`,
    [personId, size, (page - 1) * size],
  );
}
