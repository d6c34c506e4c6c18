import pg from 'pg';
import { DEFAULT_DATABASE_POOL_SIZE } from '../config.ts';
import { type Db, type Queryable, type Row } from './db.ts';

/**
 * PGlite served over the wire protocol (pglite-socket) runs every connection on one backend, so
 * the extended-protocol messages of concurrent connections interleave and break each other
 * ("unnamed prepared statement does not exist"). Against it the pool keeps one connection.
 */
async function servesOneBackend(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  // Fail fast with a clear message when the database cannot be reached.
  await client.connect();
  try {
    const res = await client.query<{ version: string }>('SELECT version() AS version');
    return /\bPGlite\b/.test(res.rows[0]?.version ?? '');
  } finally {
    await client.end();
  }
}

/** `poolSize`: connections at most (DATABASE_POOL_SIZE, config.ts). */
export async function openPostgres(
  url: string,
  poolSize = DEFAULT_DATABASE_POOL_SIZE,
): Promise<Db> {
  const max = (await servesOneBackend(url)) ? 1 : poolSize;
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection that fails (server restart, network) must not crash the process: the
  // pool drops it and opens a new one on the next query.
  pool.on('error', (err) => console.error('database connection error:', err.message));
  const asQueryable = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T extends Row>(sql: string, params?: readonly unknown[]) {
      const res = await c.query(sql, params as unknown[] | undefined);
      return res.rows as T[];
    },
    async exec(sql: string) {
      await c.query(sql);
    },
  });
  const tx = async <T>(fn: (q: Queryable) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(asQueryable(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };
  /**
   * The transaction's BEGIN and its settings in one round trip (a simple query of several
   * statements, the values as literals), then the statement, then COMMIT: three round trips
   * instead of two plus one a setting (a dense search has two).
   */
  const settingsThen = async <T extends Row>(
    needed: [string, string][],
    sql: string,
    params?: readonly unknown[],
  ): Promise<T[]> => {
    const client = await pool.connect();
    try {
      const sets = needed.map(
        ([name, value]) =>
          `set_config(${client.escapeLiteral(name)}, ${client.escapeLiteral(value)}, true)`,
      );
      await client.query(`BEGIN; SELECT ${sets.join(', ')}`);
      const res = await client.query(sql, params as unknown[] | undefined);
      await client.query('COMMIT');
      return res.rows as T[];
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };
  return {
    kind: 'postgres',
    connections: max,
    exclusiveTx: false,
    ...asQueryable(pool),
    // The gate keeps at most `max` statements in the pool: this one takes the next free connection.
    ping: async () => void (await pool.query('SELECT 1')),
    tx,
    queryWith: (settings, sql, params) => {
      // node-postgres sends unnamed statements, planned for their values each time: a setting of
      // the plan cache has nothing to act on, and without others no transaction is needed.
      const needed = Object.entries(settings).filter(([name]) => name !== 'plan_cache_mode');
      if (needed.length === 0) return asQueryable(pool).query(sql, params);
      return settingsThen(needed, sql, params);
    },
    close: () => pool.end(),
  };
}
