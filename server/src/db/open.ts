import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

/**
 * Opens the configured database and brings its schema up to date. `shortRun`: for a command that
 * runs a few statements and ends (the embedded database starts sooner, see PgliteOpenOptions).
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>,
  opts: { shortRun?: boolean } = {},
): Promise<Db> {
  // Each driver is loaded only when used: the embedded default never loads pg's client.
  const db = config.databaseUrl
    ? await (
        await import('./postgres.ts')
      ).openPostgres(config.databaseUrl, config.databasePoolSize)
    : await (await import('./pglite.ts')).openPglite(path.join(config.dataDir, 'db'), opts);
  await migrate(db);
  return db;
}
