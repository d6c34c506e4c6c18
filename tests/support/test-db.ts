// A fresh, migrated in-memory database for a test. PGlite's own start runs initdb in WebAssembly
// (about 4 CPU-s here); starting as a copy of a migrated database saved once costs about one. The
// copy is kept in the temp folder under a name made of PGlite's version and the migrations, so a
// changed migration makes a new one.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listMigrations, migrate } from '../../server/src/db/migrate.ts';
import { openPglite, type PgliteDb } from '../../server/src/db/pglite.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

function templateName(): string {
  const hash = crypto.createHash('sha256');
  const pglite = path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  hash.update(fs.readFileSync(pglite));
  for (const m of listMigrations()) hash.update(m.name).update(fs.readFileSync(m.file));
  return path.join(os.tmpdir(), `va-test-db-${hash.digest('hex').slice(0, 16)}`);
}

/**
 * `final`, made by `make` when no process has made it yet: under a name of this process's own,
 * then renamed whole, so that two processes making it at once never leave half of one.
 */
async function madeOnce(final: string, make: (partial: string) => Promise<void>): Promise<string> {
  if (fs.existsSync(final)) return final;
  const partial = `${final}.${process.pid}.part`;
  await make(partial);
  try {
    fs.renameSync(partial, final);
  } catch {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return final;
}

/** A database in dataDir (in memory when undefined), migrated, handed to `then`, closed. */
async function migrated(
  dataDir: string | undefined,
  then: (db: PgliteDb) => Promise<void>,
): Promise<void> {
  const db = await openPglite(dataDir, { shortRun: true });
  try {
    await migrate(db);
    await then(db);
  } finally {
    await db.close();
  }
}

let saved: Promise<string> | undefined;

/** A new in-memory database with every migration applied. */
export async function openTestDb(): Promise<PgliteDb> {
  saved ??= madeOnce(`${templateName()}.tar`, (partial) =>
    migrated(undefined, (db) => db.save(partial)),
  );
  const db = await openPglite(undefined, { from: await saved, shortRun: true });
  // A no-op on the copy; it keeps a test honest if the copy were ever stale.
  await migrate(db);
  return db;
}

/**
 * Puts into dataDir the database `npm start` would leave there at its first start (migrated, no
 * accounts yet), copied from one made once per machine: the server then opens it instead of
 * running initdb on disk.
 */
export async function copyMigratedDatabase(dataDir: string): Promise<void> {
  const made = await madeOnce(`${templateName()}-disk`, (partial) =>
    migrated(partial, async () => undefined),
  );
  fs.cpSync(made, path.join(dataDir, 'db'), { recursive: true });
}
