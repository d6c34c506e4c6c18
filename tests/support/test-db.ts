// A fresh, migrated database for a test. By default the embedded one (PGlite in memory): its own
// start runs initdb in WebAssembly (about 4 CPU-s here); starting as a copy of a migrated
// database saved once costs about one. The copy is kept in the temp folder under a name made of
// PGlite's version and the migrations, so a changed migration makes a new one.
// With TEST_DATABASE=postgres every test runs on a real PostgreSQL with pgvector instead (one
// server per test process, a database per test copied from a migrated template): CI runs the
// database's tests both ways (issue 41).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../server/src/db/db.ts';
import { listMigrations, migrate } from '../../server/src/db/migrate.ts';
import { openPglite, type PgliteDb } from '../../server/src/db/pglite.ts';
import { openPostgres } from '../../server/src/db/postgres.ts';
import { startPostgres, type RealPostgres } from './postgres.ts';

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

/** The database the tests run on (TEST_DATABASE=postgres: a real PostgreSQL with pgvector). */
export const TEST_DATABASE: 'embedded' | 'postgres' =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'embedded';

/** A new database with every migration applied, on the database TEST_DATABASE names. */
export async function openTestDb(): Promise<Db> {
  return TEST_DATABASE === 'postgres' ? openPostgresTestDb() : openEmbeddedTestDb();
}

/** A new in-memory embedded database with every migration applied. */
export async function openEmbeddedTestDb(): Promise<PgliteDb> {
  saved ??= madeOnce(`${templateName()}.tar`, (partial) =>
    migrated(undefined, (db) => db.save(partial)),
  );
  const db = await openPglite(undefined, { from: await saved, shortRun: true });
  // A no-op on the copy; it keeps a test honest if the copy were ever stale.
  await migrate(db);
  return db;
}

/**
 * A new database with no migration applied, on the database TEST_DATABASE names: for the tests
 * of the migrations themselves. The embedded one starts as a copy of an empty one saved once.
 */
export async function openEmptyTestDb(): Promise<Db> {
  if (TEST_DATABASE === 'postgres') return openPostgresTestDb('template0');
  savedEmpty ??= madeOnce(`${templateName()}-empty.tar`, async (partial) => {
    const db = await openPglite(undefined, { shortRun: true });
    try {
      await db.save(partial);
    } finally {
      await db.close();
    }
  });
  return openPglite(undefined, { from: await savedEmpty, shortRun: true });
}

let savedEmpty: Promise<string> | undefined;

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

let server: Promise<{ postgres: RealPostgres; template: string }> | undefined;

/** This process's PostgreSQL and its migrated template database, started on first use. */
function postgresServer(): Promise<{ postgres: RealPostgres; template: string }> {
  server ??= (async () => {
    const postgres = await startPostgres();
    process.once('exit', () => postgres.stop());
    const template = 'va_template';
    const admin = await openPostgres(postgres.url);
    try {
      await admin.exec(`CREATE DATABASE ${template}`);
    } finally {
      await admin.close();
    }
    const db = await openPostgres(databaseUrl(postgres.url, template));
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    return { postgres, template };
  })();
  return server;
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The URL of a new database on this process's real PostgreSQL (whatever TEST_DATABASE says), a
 * copy of the migrated template (or of `from`): for the tests of PostgreSQL's own concurrency,
 * which open several pools on it as several processes would. The server stops with the process.
 */
export async function newPostgresDatabase(from?: string): Promise<string> {
  const server = await postgresServer();
  const name = `t_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = await openPostgres(server.postgres.url);
  try {
    await admin.exec(`CREATE DATABASE ${name} TEMPLATE ${from ?? server.template}`);
  } finally {
    await admin.close();
  }
  return databaseUrl(server.postgres.url, name);
}

/** As newPostgresDatabase, opened; dropped on close. */
async function openPostgresTestDb(from?: string): Promise<Db> {
  const url = await newPostgresDatabase(from);
  const db = await openPostgres(url);
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await close();
      const { postgres } = await postgresServer();
      const dropper = await openPostgres(postgres.url);
      try {
        await dropper.exec(
          `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`,
        );
      } finally {
        await dropper.close();
      }
    },
  });
}
