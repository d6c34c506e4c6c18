// Db.queryWith on a real PostgreSQL: the settings (the HNSW search's width) are in force for the
// one statement, sent with the transaction's BEGIN in one round trip, and gone after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type RealPostgres } from '../../../tests/support/postgres.ts';
import type { Db } from './db.ts';
import { openPostgres } from './postgres.ts';

describe('queryWith on PostgreSQL', () => {
  let postgres: RealPostgres;
  let db: Db;
  beforeAll(async () => {
    postgres = await startPostgres();
    // One connection: a setting left behind would show in the next statement.
    db = await openPostgres(postgres.url, 1);
  }, 240_000);
  afterAll(async () => {
    await db?.close();
    postgres?.stop();
  });

  const current = "SELECT current_setting('work_mem') AS w, current_setting('search_path') AS p";

  it('holds every setting for the statement alone', async () => {
    const [before] = await db.query<{ w: string; p: string }>(current);
    const [inside] = await db.queryWith<{ w: string; p: string }>(
      { work_mem: '7MB', search_path: 'public, "it\'s"' },
      current,
    );
    expect(inside).toEqual({ w: '7MB', p: 'public, "it\'s"' });
    const [after] = await db.query<{ w: string; p: string }>(current);
    expect(after).toEqual(before);
  });

  it('passes the statement its parameters, and rolls back when it fails', async () => {
    const [row] = await db.queryWith<{ n: number }>(
      { work_mem: '5MB' },
      'SELECT $1::int AS n',
      [41],
    );
    expect(row!.n).toBe(41);
    await expect(db.queryWith({ work_mem: '5MB' }, 'SELECT 1/0')).rejects.toThrow(/division/);
    const [after] = await db.query<{ w: string }>(current);
    expect(after!.w).not.toBe('5MB');
    const [tx] = await db.query<{ s: string }>('SELECT now() = statement_timestamp() AS s');
    // Not left inside a transaction: now() is this statement's own start.
    expect(tx!.s).toBe(true);
  });
});
