// The SQL of trailers and reports: the "creating" flags, the stored instruction, the finished
// file's key and a small record of how it was made (output_data.trailer / output_data.report).
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';
import { VIDEO_DATE_COLUMN, type VideoRow } from './videos.ts';

export type OutputKind = 'trailer' | 'report';

// Column names come from this fixed table, never from input.
const COLUMNS = {
  trailer: { flag: 'is_trailer_creating', key: 'trailer_key', job: 'make-trailer' },
  report: { flag: 'is_report_creating', key: 'report_key', job: 'make-report' },
} as const;

export type StartOutcome = 'started' | 'not_found' | 'not_completed' | 'busy';

/**
 * Sets the creating flag and stores the instruction, so that of two concurrent requests only one
 * wins. A flag left set by a job that no longer exists (lost in a crash) does not block a new
 * request. Run it in a transaction with the job's insert: the video row stays locked until the
 * commit.
 *
 * One `UPDATE … WHERE NOT flag OR NOT EXISTS (live job)` is not enough on PostgreSQL (READ
 * COMMITTED): a request that waited for the row lock re-checks the updated row, but its subquery
 * still uses the statement's old snapshot, misses the job the winner inserted and wins as well.
 * Hence lock first, then look for the live job in a later statement, whose fresh snapshot sees
 * everything committed by the requests we waited for.
 */
export async function startCreating(
  q: Queryable,
  kind: OutputKind,
  o: { teamId: string; videoId: string; instruction: string },
): Promise<StartOutcome> {
  const c = COLUMNS[kind];
  const video = await one<{ status: string; creating: boolean }>(
    q,
    `SELECT status, ${c.flag} AS creating FROM videos WHERE id = $1 AND team_id = $2 FOR UPDATE`,
    [o.videoId, o.teamId],
  );
  if (!video) return 'not_found';
  if (video.status !== 'completed') return 'not_completed';
  if (video.creating) {
    const live = await one(
      q,
      `SELECT 1 AS live FROM jobs WHERE video_id = $1 AND name = $2 AND state IN ('queued', 'running')
       LIMIT 1`,
      [o.videoId, c.job],
    );
    if (live) return 'busy';
  }
  const store =
    kind === 'trailer'
      ? 'trailer_instruction = $2'
      : `output_data = output_data || jsonb_build_object('report_instruction', $2::text)`;
  await q.query(`UPDATE videos SET ${c.flag} = true, ${store}, updated_at = now() WHERE id = $1`, [
    o.videoId,
    o.instruction,
  ]);
  return 'started';
}

/** Shows the flag for a job that was queued without a request (the upload's trailer). */
export async function markCreating(q: Queryable, kind: OutputKind, videoId: string): Promise<void> {
  const c = COLUMNS[kind];
  await q.query(`UPDATE videos SET ${c.flag} = true WHERE id = $1 AND NOT ${c.flag}`, [videoId]);
}

/** Clears the flag and notes why the last attempt failed; the previous output stays. */
export async function failCreating(
  q: Queryable,
  kind: OutputKind,
  videoId: string,
  reason: string,
  at: Date,
): Promise<void> {
  const c = COLUMNS[kind];
  await q.query(
    `UPDATE videos SET ${c.flag} = false,
       output_data = output_data || jsonb_build_object($2::text, jsonb_build_object(
         'reason', $3::text, 'at', $4::text)),
       updated_at = now()
     WHERE id = $1`,
    [videoId, `${kind}_failure`, reason.slice(0, 500), at.toISOString()],
  );
}

/**
 * Points the video at its new file, clears the flag and keeps the record of how it was made.
 * Answers the key it replaced (to delete), or undefined when the video is gone. Run it in a
 * transaction: the previous key is read under the row lock.
 */
export async function finishCreating(
  q: Queryable,
  kind: OutputKind,
  videoId: string,
  key: string,
  record: Record<string, unknown>,
): Promise<{ previousKey: string | null } | undefined> {
  const c = COLUMNS[kind];
  const old = await one<{ previous: string | null }>(
    q,
    `SELECT ${c.key} AS previous FROM videos WHERE id = $1 FOR UPDATE`,
    [videoId],
  );
  if (!old) return undefined;
  await q.query(
    `UPDATE videos SET ${c.key} = $2, ${c.flag} = false,
       output_data = (output_data - $4::text) || jsonb_build_object($3::text, $5::jsonb),
       updated_at = now()
     WHERE id = $1`,
    [videoId, key, kind, `${kind}_failure`, JSON.stringify(record)],
  );
  return { previousKey: old.previous };
}

/** What making a trailer or a report reads: the listed columns of VideoRow and three more. */
export interface OutputVideo extends Pick<
  VideoRow,
  | 'id'
  | 'team_id'
  | 'filename'
  | 'title'
  | 'summary'
  | 'tags'
  | 'status'
  | 'created_at'
  | 'video_date'
  | 'video_length'
  | 'source_key'
  | 'playable_key'
  | 'trailer_key'
  | 'report_key'
> {
  output_language: string;
  trailer_instruction: string | null;
  output_data: Record<string, unknown>;
}

export function outputVideo(q: Queryable, videoId: string): Promise<OutputVideo | undefined> {
  return one<OutputVideo & Record<string, unknown>>(
    q,
    `SELECT v.id, v.team_id, v.filename, v.title, v.summary, v.tags, v.status, v.created_at,
       ${VIDEO_DATE_COLUMN}, v.video_length, v.output_language, v.source_key, v.playable_key,
       v.trailer_key, v.report_key, v.trailer_instruction, v.output_data
     FROM videos v WHERE v.id = $1`,
    [videoId],
  );
}

/** The report's key when the video belongs to the team, for the report page. */
export async function teamReport(
  q: Queryable,
  teamId: string,
  videoId: string,
): Promise<{ report_key: string | null } | undefined> {
  return one<{ report_key: string | null }>(
    q,
    'SELECT report_key FROM videos WHERE id = $1 AND team_id = $2',
    [videoId, teamId],
  );
}
