// "Similar to this video / scene": the stored vector of the query item, within the team.
import type { Queryable } from '../db/db.ts';
import { parseVector } from '../db/vector.ts';

export interface ItemQuery {
  teamId: string;
  videoId: string;
  sceneIdx?: number | undefined;
}

/** The item's stored vector; undefined when it has none yet, or is not in the team. */
export async function itemVector(q: Queryable, item: ItemQuery): Promise<number[] | undefined> {
  const rows =
    item.sceneIdx === undefined
      ? await q.query<{ e: string | null }>(
          `SELECT embedding::text AS e FROM videos WHERE id = $1 AND team_id = $2`,
          [item.videoId, item.teamId],
        )
      : await q.query<{ e: string | null }>(
          `SELECT s.embedding::text AS e
           FROM scenes s JOIN videos v ON v.id = s.video_id
           WHERE s.video_id = $1 AND v.team_id = $2 AND s.idx = $3`,
          [item.videoId, item.teamId, item.sceneIdx],
        );
  const e = rows[0]?.e;
  return e ? parseVector(e) : undefined;
}
