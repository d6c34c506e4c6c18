// What every route and job needs, built once at start and passed down explicitly. Here, apart
// from the HTTP app (server.ts), so that a worker process does not load the web server.
import fs from 'node:fs';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import { gated } from './db/gate.ts';
import { openDatabase } from './db/open.ts';
import { createLogger, type Logger } from './lifecycle/logger.ts';
import { loadSecrets, type Secrets } from './secrets.ts';
import { createStorage } from './storage/create.ts';
import type { Storage } from './storage/storage.ts';

export interface AppContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  storage: Storage;
  /** The process's root logger (LOG_LEVEL); parts log through a child naming them. */
  log: Logger;
  /** Injected so tests can move time; defaults to Date.now. */
  now: () => number;
}

export async function createContext(
  config: Config,
  db?: Db,
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void },
): Promise<AppContext> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  return {
    config,
    db: gated(db ?? (await openDatabase(config))),
    secrets: loadSecrets(config.dataDir),
    storage: await createStorage(config),
    log: createLogger(config.logLevel, logStream),
    now: Date.now,
  };
}
