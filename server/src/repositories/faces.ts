// Face descriptors (migrations 010, 015): of the people images and of the faces seen in scenes.
// Every read is bounded to one team, so faces are never compared across teams. Only 128-number
// descriptors (ResNet-34) are read for matching; the old FaceRes embeddings wait for the
// recompute job (faces/recompute.ts) and are never compared with them.
import type { Queryable } from '../db/db.ts';
import { FACE_DESCRIPTOR_VERSION } from '../faces/descriptor-version.ts';

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
  descriptor: readonly number[] | null,
): Promise<void> {
  await q.query(
    `UPDATE video_people SET faces_found = $3, descriptor = $4::vector, face_embedding = NULL,
       descriptor_version = $5
     WHERE video_id = $1 AND position = $2`,
    [
      videoId,
      position,
      facesFound,
      descriptor ? vectorText(descriptor) : null,
      FACE_DESCRIPTOR_VERSION,
    ],
  );
}

/** A descriptor as pgvector's text form. */
export const vectorText = (v: readonly number[]): string => `[${v.join(',')}]`;

/**
 * Reference faces of the video's team: the one face of each people image uploaded with any of
 * the team's videos (this one first). Never another team's.
 */
export async function teamPeopleFaces(
  q: Queryable,
  videoId: string,
): Promise<{ name: string; descriptor: number[] }[]> {
  return q.query<{ name: string; descriptor: number[] }>(
    `SELECT p.name, p.descriptor::real[] AS descriptor
     FROM videos me
     JOIN videos v ON v.team_id = me.team_id
     JOIN video_people p ON p.video_id = v.id
     WHERE me.id = $1 AND p.descriptor IS NOT NULL
     ORDER BY (v.id = me.id) DESC, v.created_at, p.position`,
    [videoId],
  );
}

export interface SceneFaceRow {
  scene_idx: number;
  face_idx: number;
  descriptor: readonly number[];
  /** The scene's frame it was seen best on (its frame-NN.jpg, from 0). */
  frame_idx: number;
  /** x, y, width, height in that frame's pixels. */
  box: readonly number[];
  crop_key: string | null;
  /** The people image it matched, until the people's assignment (people/assign.ts) decides. */
  person_name: string | null;
}

/**
 * Replaces the faces recorded for the video's scenes (a re-run leaves no old face behind); gives
 * the crop keys of the faces replaced, for the caller to delete those no longer used.
 */
export async function replaceSceneFaces(
  q: Queryable,
  videoId: string,
  rows: readonly SceneFaceRow[],
): Promise<string[]> {
  const old = await q.query<{ crop_key: string | null }>(
    'DELETE FROM scene_faces WHERE video_id = $1 RETURNING crop_key',
    [videoId],
  );
  for (const r of rows) {
    await q.query(
      `INSERT INTO scene_faces
         (video_id, scene_idx, face_idx, descriptor, frame_idx, box, crop_key, person_name,
        descriptor_version)
       VALUES ($1, $2, $3, $4::vector, $5, $6::real[], $7, $8, $9)`,
      [
        videoId,
        r.scene_idx,
        r.face_idx,
        vectorText(r.descriptor),
        r.frame_idx,
        [...r.box],
        r.crop_key,
        r.person_name,
        FACE_DESCRIPTOR_VERSION,
      ],
    );
  }
  return old.flatMap((o) => (o.crop_key ? [o.crop_key] : []));
}

/** The names now on each scene's faces (after the people's assignment), by scene. */
export async function sceneFaceNames(
  q: Queryable,
  videoId: string,
): Promise<Map<number, { named: string[]; unnamed: number }>> {
  const rows = await q.query<{ scene_idx: number; person_name: string | null }>(
    'SELECT scene_idx, person_name FROM scene_faces WHERE video_id = $1 ORDER BY scene_idx, face_idx',
    [videoId],
  );
  const out = new Map<number, { named: string[]; unnamed: number }>();
  for (const r of rows) {
    const scene = out.get(r.scene_idx) ?? { named: [], unnamed: 0 };
    out.set(r.scene_idx, scene);
    if (r.person_name === null) scene.unnamed++;
    else if (!scene.named.includes(r.person_name)) scene.named.push(r.person_name);
  }
  return out;
}

/** A stored face whose descriptor was made the older way (descriptor-version.ts). */
export type StaleFace = {
  id: string;
  scene_idx: number;
  frame_idx: number | null;
  box: number[] | null;
};

/** The video's faces described in an older version, to be described again in place. */
export async function staleSceneFaces(q: Queryable, videoId: string): Promise<StaleFace[]> {
  return q.query<StaleFace>(
    `SELECT id::text AS id, scene_idx, frame_idx, box FROM scene_faces
     WHERE video_id = $1 AND descriptor IS NOT NULL AND descriptor_version < $2
     ORDER BY scene_idx, face_idx`,
    [videoId, FACE_DESCRIPTOR_VERSION],
  );
}

/**
 * Gives faces their descriptors of the current version, in place: each keeps its id, person,
 * name and rejections; its vector in the nearest-faces index (face_vectors) follows.
 */
export async function redescribeFaces(
  q: Queryable,
  faces: readonly { id: string; descriptor: readonly number[] | null }[],
): Promise<void> {
  for (const f of faces) {
    await q.query(
      `UPDATE scene_faces SET descriptor = coalesce($2::vector, descriptor), descriptor_version = $3
       WHERE id = $1`,
      [f.id, f.descriptor ? vectorText(f.descriptor) : null, FACE_DESCRIPTOR_VERSION],
    );
    if (f.descriptor) {
      await q.query('UPDATE face_vectors SET descriptor = $2::vector WHERE face_id = $1', [
        f.id,
        vectorText(f.descriptor),
      ]);
    }
  }
}
