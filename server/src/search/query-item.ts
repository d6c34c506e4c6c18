// "Similar to this video / scene": the stored vector of the query item, within the team.
import type { Queryable } from '../db/db.ts';

export interface ItemQuery {
  teamId: string;
  videoId: string;
  sceneIdx?: number | undefined;
}

/** pgvector's text form back to numbers. */
export function parseVector(text: string): number[] {
  return text
    .replace(/^\[|\]$/g, '')
    .split(',')
    .filter(Boolean)
    .map(Number);
}

/** undefined when the item is not in the team; vector undefined when it has none yet. */
export async function queryFromItem(
  q: Queryable,
  item: ItemQuery,
  withVector: boolean,
): Promise<{ vector: number[] | undefined } | undefined> {
  const rows =
    item.sceneIdx === undefined
      ? await q.query<{ e: string | null }>(
          `SELECT ${withVector ? 'embedding::text' : 'NULL'} AS e FROM videos WHERE id = $1 AND team_id = $2`,
          [item.videoId, item.teamId],
        )
      : await q.query<{ e: string | null }>(
          `SELECT ${withVector ? 's.embedding::text' : 'NULL'} AS e
           FROM scenes s JOIN videos v ON v.id = s.video_id
           WHERE s.video_id = $1 AND v.team_id = $2 AND s.idx = $3`,
          [item.videoId, item.teamId, item.sceneIdx],
        );
  const row = rows[0];
  if (!row) return undefined;
  return { vector: row.e ? parseVector(row.e) : undefined };
}
