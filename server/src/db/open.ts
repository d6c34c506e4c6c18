import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/**
 * Opens the configured database and brings its schema up to date. `shortRun`: for a command that
 * runs a few statements and ends (the embedded database starts sooner, see PgliteOpenOptions).
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  opts: { shortRun?: boolean } = {},
): Promise<Db> {
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl)
    : await openPglite(path.join(config.dataDir, 'db'), opts);
  await migrate(db);
  return db;
}
