// The average document length that the stored impacts (search_postings.impact, migration 009)
// were computed with. BM25 ranks with it rather than with the live average, so the impacts stay
// exact; when indexing or removal moves the live average more than DRIFT away, every impact of
// the team and kind is recomputed (a cost that shrinks as the archive grows: the average moves
// less with each video). docs/decisions/keyword-search-impacts.md.
import type { Queryable } from '../db/db.ts';

/** How far the live average length may move from the impacts' before they are recomputed. */
export const IMPACT_DRIFT = 0.005;

/** Recomputes the impacts of one team and kind when their average length is stale. */
export async function refreshImpacts(q: Queryable, teamId: string, kind: number): Promise<void> {
  const moved = await q.query<{ avgdl: number }>(
    `UPDATE search_corpus_stats
     SET impact_avgdl = total_len::float8 / n_docs
     WHERE team_id = $1 AND kind = $2 AND n_docs > 0
       AND (impact_avgdl IS NULL OR abs(total_len::float8 / n_docs / impact_avgdl - 1) > $3)
     RETURNING impact_avgdl AS avgdl`,
    [teamId, kind, IMPACT_DRIFT],
  );
  if (moved.length === 0) return;
  await q.query(
    `UPDATE search_postings SET impact = search_impact(tf, doc_len, $3)
     WHERE team_id = $1 AND kind = $2`,
    [teamId, kind, moved[0]!.avgdl],
  );
}
