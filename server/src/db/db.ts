// The one database interface: PGlite embedded by default, PostgreSQL when DATABASE_URL is set.
// Repositories are the only code that calls it.

export type Row = Record<string, unknown>;

export interface Queryable {
  /** One statement with $1.. parameters. */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** How many statements it takes at once (a pool's connections; on PGlite, statements sent ahead). */
  readonly connections: number;
  /** A transaction holds the only connection: nothing else runs until it ends (PGlite). */
  readonly exclusiveTx: boolean;
  /**
   * One statement with these settings (`set_config`) in force for it, in one call: the HNSW
   * search width, for example. Cheaper than a transaction, which on PGlite holds the only
   * connection for several round trips.
   */
  queryWith<T extends Row = Row>(
    settings: Readonly<Record<string, string>>,
    sql: string,
    params?: readonly unknown[],
  ): Promise<T[]>;
  /**
   * The liveness check (`SELECT 1`, /api/health): it goes ahead of everything queued. On PGlite it
   * runs on the one connection between the statements of an open transaction instead of after
   * its end (an analysis's transaction held health answers for 50-300 ms); on PostgreSQL it takes
   * the next free connection of the pool.
   */
  ping(): Promise<void>;
  /** Runs fn in one transaction; rolls back if it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A setting for the rest of the current transaction: with Db.queryWith, for one statement. */
export const SET_LOCAL_SQL = 'SELECT set_config($1, $2, true)';

export async function one<T extends Row>(
  q: Queryable,
  sql: string,
  params?: readonly unknown[],
): Promise<T | undefined> {
  const rows = await q.query<T>(sql, params);
  return rows[0];
}
