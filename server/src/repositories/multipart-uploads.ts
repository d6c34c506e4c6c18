// Multipart (resumable) uploads and, for the local backend, their received parts.
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export interface MultipartRow {
  id: string;
  video_id: string;
  storage_key: string;
  backend: 'local' | 's3';
  backend_upload_id: string | null;
  part_size: number;
  status: 'open' | 'completed' | 'aborted';
  expires_at: Date;
}

export interface PartRow {
  part_number: number;
  etag: string;
  size: number;
}

const COLUMNS = `id, video_id, storage_key, backend, backend_upload_id, part_size::float8 AS part_size,
  status, expires_at`;

type Rec<T> = T & Record<string, unknown>;

export async function insertMultipart(
  q: Queryable,
  m: Omit<MultipartRow, 'status'> & { created_at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO multipart_uploads
       (id, video_id, storage_key, backend, backend_upload_id, part_size, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      m.id,
      m.video_id,
      m.storage_key,
      m.backend,
      m.backend_upload_id,
      m.part_size,
      m.created_at,
      m.expires_at,
    ],
  );
}

export function findMultipart(q: Queryable, id: string): Promise<MultipartRow | undefined> {
  return one<Rec<MultipartRow>>(q, `SELECT ${COLUMNS} FROM multipart_uploads WHERE id = $1`, [id]);
}

export function openMultipartsOfVideo(q: Queryable, videoId: string): Promise<MultipartRow[]> {
  return q.query<Rec<MultipartRow>>(
    `SELECT ${COLUMNS} FROM multipart_uploads WHERE video_id = $1 AND status = 'open'`,
    [videoId],
  );
}

export function expiredMultiparts(q: Queryable, now: Date): Promise<MultipartRow[]> {
  return q.query<Rec<MultipartRow>>(
    `SELECT ${COLUMNS} FROM multipart_uploads WHERE status = 'open' AND expires_at <= $1`,
    [now],
  );
}

export function allMultipartIds(q: Queryable): Promise<{ id: string }[]> {
  return q.query<Rec<{ id: string }>>(`SELECT id FROM multipart_uploads WHERE status = 'open'`);
}

/** open -> completed | aborted; true only for the call that made the change. */
export async function closeMultipart(
  q: Queryable,
  id: string,
  status: 'completed' | 'aborted',
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE multipart_uploads SET status = $2 WHERE id = $1 AND status = 'open' RETURNING id`,
    [id, status],
  );
  if (rows.length === 1) await q.query('DELETE FROM upload_parts WHERE upload_id = $1', [id]);
  return rows.length === 1;
}

export async function deletePart(q: Queryable, id: string, partNumber: number): Promise<void> {
  await q.query('DELETE FROM upload_parts WHERE upload_id = $1 AND part_number = $2', [
    id,
    partNumber,
  ]);
}

export async function savePart(q: Queryable, id: string, part: PartRow): Promise<void> {
  await q.query(
    `INSERT INTO upload_parts (upload_id, part_number, etag, size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (upload_id, part_number) DO UPDATE SET etag = EXCLUDED.etag, size = EXCLUDED.size`,
    [id, part.part_number, part.etag, part.size],
  );
}

export function listSavedParts(q: Queryable, id: string): Promise<PartRow[]> {
  return q.query<Rec<PartRow>>(
    `SELECT part_number, etag, size::float8 AS size FROM upload_parts WHERE upload_id = $1
     ORDER BY part_number`,
    [id],
  );
}
