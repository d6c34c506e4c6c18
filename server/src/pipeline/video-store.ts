// The pipeline's SQL on videos, scenes and pipeline_steps (the pipeline's repository).
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';
import type { FailureCode } from './failure.ts';

export type VideoToAnalyse = {
  id: string;
  filename: string;
  source_key: string | null;
  status: string;
  about_this_video: string;
  output_language: string;
  trailer_instruction: string | null;
};

export async function videoToAnalyse(
  q: Queryable,
  videoId: string,
): Promise<VideoToAnalyse | undefined> {
  return one<VideoToAnalyse>(
    q,
    `SELECT id, filename, source_key, status, about_this_video, output_language, trailer_instruction
     FROM videos WHERE id = $1`,
    [videoId],
  );
}

export async function videoExists(q: Queryable, videoId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM videos WHERE id = $1', [videoId])).length > 0;
}

export async function hasTrailerInstruction(q: Queryable, videoId: string): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM videos WHERE id = $1 AND coalesce(trim(trailer_instruction), '') <> ''`,
    [videoId],
  );
  return rows.length > 0;
}

export async function peopleOf(
  q: Queryable,
  videoId: string,
): Promise<{ name: string; image_key: string }[]> {
  return q.query<{ name: string; image_key: string }>(
    'SELECT name, image_key FROM video_people WHERE video_id = $1 ORDER BY position',
    [videoId],
  );
}

export async function setStatus(
  q: Queryable,
  videoId: string,
  status: 'in_progress' | 'completed' | 'failed',
  failure?: { reason: string; code: FailureCode },
): Promise<void> {
  await q.query(
    `UPDATE videos SET status = $2, failure_reason = $3, failure_code = $4, updated_at = now()
      WHERE id = $1`,
    [videoId, status, failure?.reason ?? null, failure?.code ?? null],
  );
}

export interface VideoFields {
  title?: string;
  summary?: string;
  tags?: { name: string }[];
  video_length?: number;
  thumbnail_key?: string;
  playable_key?: string;
}

const FIELD_NAMES = [
  'title',
  'summary',
  'tags',
  'video_length',
  'thumbnail_key',
  'playable_key',
] as const;

/** Sets the given columns; `outputData` is merged into output_data (top-level keys replaced). */
export async function updateVideo(
  q: Queryable,
  videoId: string,
  fields: VideoFields,
  outputData?: Record<string, unknown>,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [videoId];
  for (const name of FIELD_NAMES) {
    const value = fields[name];
    if (value === undefined) continue;
    params.push(name === 'tags' ? JSON.stringify(value) : value);
    sets.push(`${name} = $${params.length}${name === 'tags' ? '::jsonb' : ''}`);
  }
  if (outputData) {
    params.push(JSON.stringify(outputData));
    sets.push(`output_data = output_data || $${params.length}::jsonb`);
  }
  if (sets.length === 0) return;
  await q.query(`UPDATE videos SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
}

export interface SceneInsert {
  idx: number;
  start_ms: number;
  end_ms: number;
  thumbnail_key: string | null;
  frames: string[];
}

export async function replaceScenes(
  q: Queryable,
  videoId: string,
  scenes: readonly SceneInsert[],
): Promise<void> {
  await q.query('DELETE FROM scenes WHERE video_id = $1', [videoId]);
  for (const s of scenes) {
    await q.query(
      `INSERT INTO scenes (video_id, idx, start_ms, end_ms, thumbnail_key, frames)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
      [videoId, s.idx, s.start_ms, s.end_ms, s.thumbnail_key, JSON.stringify(s.frames)],
    );
  }
}

export type StoredScene = {
  idx: number;
  start_ms: number;
  end_ms: number;
  thumbnail_key: string | null;
  clip_key: string | null;
  frames: string[];
  captions: string;
  description: string;
};

export async function scenesOf(q: Queryable, videoId: string): Promise<StoredScene[]> {
  return q.query<StoredScene>(
    `SELECT idx, start_ms, end_ms, thumbnail_key, clip_key, frames, captions, description
     FROM scenes WHERE video_id = $1 ORDER BY idx`,
    [videoId],
  );
}

export async function updateScene(
  q: Queryable,
  videoId: string,
  idx: number,
  fields: { clip_key?: string; captions?: string; description?: string },
): Promise<void> {
  await q.query(
    `UPDATE scenes SET clip_key = COALESCE($3, clip_key), captions = COALESCE($4, captions),
       description = COALESCE($5, description)
     WHERE video_id = $1 AND idx = $2`,
    [videoId, idx, fields.clip_key ?? null, fields.captions ?? null, fields.description ?? null],
  );
}

// --- Step progress ---

export async function finishedSteps(q: Queryable, videoId: string): Promise<Map<string, unknown>> {
  const rows = await q.query<{ step: string; data: unknown }>(
    'SELECT step, data FROM pipeline_steps WHERE video_id = $1',
    [videoId],
  );
  return new Map(rows.map((r) => [r.step, r.data]));
}

export async function recordStep(
  q: Queryable,
  videoId: string,
  step: string,
  data: unknown,
): Promise<void> {
  await q.query(
    `INSERT INTO pipeline_steps (video_id, step, data) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (video_id, step) DO UPDATE SET data = EXCLUDED.data, finished_at = now()`,
    [videoId, step, JSON.stringify(data ?? {})],
  );
}

export async function clearSteps(q: Queryable, videoId: string): Promise<void> {
  await q.query('DELETE FROM pipeline_steps WHERE video_id = $1', [videoId]);
}
