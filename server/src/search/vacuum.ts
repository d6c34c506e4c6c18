// PGlite has no autovacuum. Without VACUUM the visibility map of the search tables stays empty,
// so every index-only scan of keyword search visits the table for each posting it reads (scenes
// keyword p50 80 ms before, 31 ms after, at 200k scenes), and without ANALYZE the planner keeps
// the row counts of the day the archive was small. PostgreSQL's autovacuum does this itself.
// Hourly (schedules.ts); after the first run it only visits pages changed since (0.8 s at 1M
// scenes, 4.3 s the first time).
import type { Db } from '../db/db.ts';
import { JobName } from '../jobs/names.ts';
import type { JobHandler } from '../jobs/registry.ts';

// It also prunes the log of indexed and removed videos that server processes follow to keep their
// keyword lists current (term-lists.ts): a day of it; a process further behind reads again.
const TABLES = [
  'search_postings',
  'search_documents',
  'search_terms',
  'search_corpus_stats',
  'search_changes',
];
export const CHANGES_KEPT = '1 day';

/**
 * Prunes the changes log, then VACUUM (ANALYZE) of the keyword index's tables on the embedded
 * database (PostgreSQL's autovacuum does that).
 */
export async function vacuumSearch(db: Pick<Db, 'kind' | 'exec' | 'query'>): Promise<void> {
  await db.query(`DELETE FROM search_changes WHERE at < now() - interval '${CHANGES_KEPT}'`);
  if (db.kind !== 'pglite') return;
  await db.exec(`VACUUM (ANALYZE) ${TABLES.join(', ')}`);
}

export const vacuumSearchHandler: JobHandler = {
  name: JobName.VacuumSearch,
  run: (ctx) => vacuumSearch(ctx.db),
};
