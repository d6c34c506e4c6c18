// Reads and small writes on people rows (migration 016) shared by the assignment and the
// corrections. Every read that starts from an id is bounded to one team by its caller.
import type { Queryable } from '../db/db.ts';
import { parseVector } from '../db/vector.ts';
import type { GroupSample } from './grouping.ts';

export async function teamOfVideo(
  q: Queryable,
  videoId: string,
): Promise<{ id: string; faceGrouping: boolean } | undefined> {
  const [row] = await q.query<{ id: string; face_grouping: boolean }>(
    `SELECT t.id, t.face_grouping FROM videos v JOIN teams t ON t.id = v.team_id WHERE v.id = $1`,
    [videoId],
  );
  return row && { id: row.id, faceGrouping: row.face_grouping };
}

/**
 * Until the transaction ends, no other transaction changes this team's people: two workers
 * assigning the faces of one new person would otherwise each start a group for them.
 */
export async function lockTeamPeople(q: Queryable, teamId: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext('people:' || $1))", [teamId]);
}

/** Counts and covers brought up to date; unnamed groups left with no face are deleted. */
export async function refreshPeople(q: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query('SELECT people_refresh($1::uuid[], false)', [[...ids]]);
}

export interface PersonSample extends GroupSample {
  id: string;
  size: number;
}

/** A group's name state, size and some of its faces' descriptors (the earliest ones). */
export async function samplesOf(
  q: Queryable,
  personId: string,
  limit: number,
): Promise<PersonSample | undefined> {
  const [person] = await q.query<{ named: boolean; face_count: number }>(
    'SELECT name IS NOT NULL AS named, face_count FROM people WHERE id = $1',
    [personId],
  );
  if (!person) return undefined;
  const rows = await q.query<{ descriptor: string }>(
    `(SELECT descriptor::text AS descriptor FROM scene_faces
      WHERE person_id = $1 AND descriptor IS NOT NULL ORDER BY id LIMIT $2)
     UNION ALL
     (SELECT descriptor::text FROM video_people WHERE person_id = $1 AND descriptor IS NOT NULL)`,
    [personId, limit],
  );
  return {
    id: personId,
    named: person.named,
    size: person.face_count,
    descriptors: rows.map((r) => parseVector(r.descriptor)),
  };
}

/**
 * Whether two groups cannot be one person: a face of one was rejected for the other, or both
 * have a face in the same scene (two faces of one scene are two people).
 */
export async function groupsConflict(q: Queryable, a: string, b: string): Promise<boolean> {
  const [row] = await q.query<{ conflict: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM face_rejections r JOIN scene_faces f ON f.id = r.face_id
       WHERE (f.person_id = $1 AND r.person_id = $2) OR (f.person_id = $2 AND r.person_id = $1)
     ) OR EXISTS (
       SELECT 1 FROM scene_faces x JOIN scene_faces y USING (video_id, scene_idx)
       WHERE x.person_id = $1 AND y.person_id = $2
     ) AS conflict`,
    [a, b],
  );
  return row?.conflict ?? false;
}
