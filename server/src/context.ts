// What every route and job needs, built once at start and passed down explicitly.
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { Secrets } from './secrets.ts';
import type { Storage } from './storage/storage.ts';

export interface AppContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  storage: Storage;
  /** Injected so tests can move time; defaults to Date.now. */
  now: () => number;
}
