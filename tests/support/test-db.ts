// A fresh, migrated in-memory database for a test. PGlite's own start runs initdb in WebAssembly
// (about 4 CPU-s here); starting as a copy of a migrated database saved once costs about one. The
// copy is kept in the temp folder under a name made of PGlite's version and the migrations, so a
// changed migration makes a new one; two processes making it at once both rename a whole file.
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

let made: Promise<string> | undefined;

async function template(): Promise<string> {
  const file = `${templateName()}.tar`;
  if (fs.existsSync(file)) return file;
  const db = await openPglite(undefined, { shortRun: true });
  try {
    await migrate(db);
    const partial = `${file}.${process.pid}.part`;
    await db.save(partial);
    fs.renameSync(partial, file);
  } finally {
    await db.close();
  }
  return file;
}

/** A new in-memory database with every migration applied. */
export async function openTestDb(): Promise<PgliteDb> {
  made ??= template();
  const db = await openPglite(undefined, { from: await made, shortRun: true });
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
  const made = `${templateName()}-disk`;
  if (!fs.existsSync(made)) {
    const partial = `${made}.${process.pid}.part`;
    const db = await openPglite(partial, { shortRun: true });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    try {
      fs.renameSync(partial, made);
    } catch {
      // Another process made it first.
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  fs.cpSync(made, path.join(dataDir, 'db'), { recursive: true });
}
