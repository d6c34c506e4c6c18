// The SQL of the upload flow: creating a video (idempotently), finding one by its file, moving it
// to in_progress once, and the people shown in it.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export interface NewVideo {
  id: string;
  teamId: string;
  ownerId: string;
  filename: string;
  videoLength: number;
  videoDate: string;
  outputLanguage: string;
  aboutThisVideo: string;
  trailerInstruction: string | null;
  sourceKey: string;
  idempotencyKey: string | null;
  /** The client's figures (issue 42); the server replaces them with its own once it has the file. */
  fileSize: number | null;
  contentSha256: string | null;
  allowDuplicate: boolean;
}

export interface UploadVideoRow {
  id: string;
  team_id: string;
  status: string;
  source_key: string | null;
}

const COLUMNS = 'id, team_id, status, source_key';

/**
 * Inserts the video, or answers the one this owner already made with the same idempotency key
 * (also when a concurrent request won the race: the unique index turns it into a conflict).
 */
export async function insertVideoOnce(
  q: Queryable,
  v: NewVideo,
): Promise<{ video: UploadVideoRow; created: boolean }> {
  const inserted = await one<UploadVideoRow & Record<string, unknown>>(
    q,
    `INSERT INTO videos (id, team_id, owner_id, filename, video_length, video_date, output_language,
       about_this_video, trailer_instruction, source_key, idempotency_key, file_size,
       content_sha256, allow_duplicate, status)
     VALUES ($1, $2, $3, $4, $5, $6::timestamp, $7, $8, $9, $10, $11, $12, $13, $14, 'uploading')
     ON CONFLICT (owner_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      v.id,
      v.teamId,
      v.ownerId,
      v.filename,
      v.videoLength,
      v.videoDate,
      v.outputLanguage,
      v.aboutThisVideo,
      v.trailerInstruction,
      v.sourceKey,
      v.idempotencyKey,
      v.fileSize,
      v.contentSha256,
      v.allowDuplicate,
    ],
  );
  if (inserted) return { video: inserted, created: true };
  const existing = await one<UploadVideoRow & Record<string, unknown>>(
    q,
    `SELECT ${COLUMNS} FROM videos WHERE owner_id = $1 AND idempotency_key = $2`,
    [v.ownerId, v.idempotencyKey],
  );
  if (!existing) throw new Error('idempotent insert conflicted but no row was found');
  return { video: existing, created: false };
}

export function findVideoBySourceKey(
  q: Queryable,
  key: string,
): Promise<UploadVideoRow | undefined> {
  return one<UploadVideoRow & Record<string, unknown>>(
    q,
    `SELECT ${COLUMNS} FROM videos WHERE source_key = $1`,
    [key],
  );
}

/** uploading -> in_progress; true only for the one call that made the change. */
export async function markUploaded(q: Queryable, id: string, sourceSize: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE videos SET status = 'in_progress', source_size = $2, file_size = $2, updated_at = now()
     WHERE id = $1 AND status = 'uploading' RETURNING id`,
    [id, sourceSize],
  );
  return rows.length === 1;
}

/** Undoes markUploaded when the analysis could not be queued. */
export async function markUploading(q: Queryable, id: string): Promise<void> {
  await q.query(
    `UPDATE videos SET status = 'uploading', updated_at = now() WHERE id = $1 AND status = 'in_progress'`,
    [id],
  );
}

export interface PersonRow {
  position: number;
  name: string;
  image_key: string;
}

export function listPeople(q: Queryable, videoId: string): Promise<PersonRow[]> {
  return q.query<PersonRow & Record<string, unknown>>(
    'SELECT position, name, image_key FROM video_people WHERE video_id = $1 ORDER BY position',
    [videoId],
  );
}

export async function replacePeople(
  q: Queryable,
  videoId: string,
  people: PersonRow[],
): Promise<void> {
  await q.query('DELETE FROM video_people WHERE video_id = $1', [videoId]);
  for (const p of people) {
    await q.query(
      'INSERT INTO video_people (video_id, position, name, image_key) VALUES ($1, $2, $3, $4)',
      [videoId, p.position, p.name, p.image_key],
    );
  }
}
