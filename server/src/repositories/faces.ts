// Face embeddings (migration 010): of the people images and of the faces seen in scenes. Every
// read is bounded to one team, so faces are never compared across teams.
import type { Queryable } from '../db/db.ts';

export type PersonImage = {
  position: number;
  name: string;
  image_key: string;
  faces_found: number | null;
};

/** The video's people images, with how many faces each was found to show (NULL: not looked). */
export async function personImagesOf(q: Queryable, videoId: string): Promise<PersonImage[]> {
  return q.query<PersonImage>(
    `SELECT position, name, image_key, faces_found FROM video_people
     WHERE video_id = $1 ORDER BY position`,
    [videoId],
  );
}

export async function setPersonFace(
  q: Queryable,
  videoId: string,
  position: number,
  facesFound: number,
  embedding: readonly number[] | null,
): Promise<void> {
  await q.query(
    `UPDATE video_people SET faces_found = $3, face_embedding = $4::real[]
     WHERE video_id = $1 AND position = $2`,
    [videoId, position, facesFound, embedding ? [...embedding] : null],
  );
}

/**
 * Reference faces of the video's team: the one face of each people image uploaded with any of
 * the team's videos (this one first). Never another team's.
 */
export async function teamPeopleFaces(
  q: Queryable,
  videoId: string,
): Promise<{ name: string; descriptor: number[] }[]> {
  return q.query<{ name: string; descriptor: number[] }>(
    `SELECT p.name, p.face_embedding AS descriptor
     FROM videos me
     JOIN videos v ON v.team_id = me.team_id
     JOIN video_people p ON p.video_id = v.id
     WHERE me.id = $1 AND p.face_embedding IS NOT NULL
     ORDER BY (v.id = me.id) DESC, v.created_at, p.position`,
    [videoId],
  );
}

export interface SceneFaceRow {
  scene_idx: number;
  face_idx: number;
  embedding: readonly number[];
  person_name: string | null;
  similarity: number | null;
}

/** Replaces the faces recorded for the video's scenes (a re-run leaves no old face behind). */
export async function replaceSceneFaces(
  q: Queryable,
  videoId: string,
  rows: readonly SceneFaceRow[],
): Promise<void> {
  await q.query('DELETE FROM scene_faces WHERE video_id = $1', [videoId]);
  for (const r of rows) {
    await q.query(
      `INSERT INTO scene_faces (video_id, scene_idx, face_idx, embedding, person_name, similarity)
       VALUES ($1, $2, $3, $4::real[], $5, $6)`,
      [videoId, r.scene_idx, r.face_idx, [...r.embedding], r.person_name, r.similarity],
    );
  }
}
