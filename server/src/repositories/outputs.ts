// The SQL of trailers and reports: the "creating" flags, the stored instruction, the finished
// file's key and a small record of how it was made (output_data.trailer / output_data.report).
import type { Queryable } from '../db/db.ts';
import { one } from '../db/db.ts';

export type OutputKind = 'trailer' | 'report';

// Column names come from this fixed table, never from input.
const COLUMNS = {
  trailer: { flag: 'is_trailer_creating', key: 'trailer_key', job: 'make-trailer' },
  report: { flag: 'is_report_creating', key: 'report_key', job: 'make-report' },
} as const;

export type StartOutcome = 'started' | 'not_found' | 'not_completed' | 'busy';

/**
 * Sets the creating flag and stores the instruction in one statement, so of two concurrent
 * requests only one wins. A flag left set by a job that no longer exists (lost in a crash) does
 * not block a new request.
 */
export async function startCreating(
  q: Queryable,
  kind: OutputKind,
  o: { teamId: string; videoId: string; instruction: string },
): Promise<StartOutcome> {
  const c = COLUMNS[kind];
  const store =
    kind === 'trailer'
      ? 'trailer_instruction = $3'
      : `output_data = output_data || jsonb_build_object('report_instruction', $3::text)`;
  const won = await one(
    q,
    `UPDATE videos v SET ${c.flag} = true, ${store}, updated_at = now()
     WHERE v.id = $1 AND v.team_id = $2 AND v.status = 'completed'
       AND (NOT v.${c.flag} OR NOT EXISTS (SELECT 1 FROM jobs j
         WHERE j.video_id = v.id AND j.name = $4 AND j.state IN ('queued', 'running')))
     RETURNING v.id`,
    [o.videoId, o.teamId, o.instruction, c.job],
  );
  if (won) return 'started';
  const row = await one<{ status: string }>(
    q,
    'SELECT status FROM videos WHERE id = $1 AND team_id = $2',
    [o.videoId, o.teamId],
  );
  if (!row) return 'not_found';
  return row.status === 'completed' ? 'busy' : 'not_completed';
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

export interface OutputVideo {
  id: string;
  team_id: string;
  filename: string;
  title: string | null;
  summary: string | null;
  tags: unknown;
  status: string;
  created_at: Date;
  video_date: string | null;
  video_length: number | null;
  output_language: string;
  source_key: string | null;
  playable_key: string | null;
  trailer_key: string | null;
  report_key: string | null;
  trailer_instruction: string | null;
  output_data: Record<string, unknown>;
}

export function outputVideo(q: Queryable, videoId: string): Promise<OutputVideo | undefined> {
  return one<OutputVideo & Record<string, unknown>>(
    q,
    `SELECT id, team_id, filename, title, summary, tags, status, created_at,
       to_char(video_date, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS video_date, video_length,
       output_language, source_key, playable_key, trailer_key, report_key, trailer_instruction,
       output_data
     FROM videos WHERE id = $1`,
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
