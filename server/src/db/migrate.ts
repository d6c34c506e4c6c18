// The one migration system: server/migrations/NNN_name.sql, applied in order, each once, each in
// a transaction. A lock keeps two processes from migrating at the same time on PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

export const migrationsDir = fileURLToPath(new URL('../../migrations', import.meta.url));

export function listMigrations(
  dir = migrationsDir,
): { version: number; name: string; file: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 3)),
      name: f.slice(4, -4),
      file: path.join(dir, f),
    }));
}

export async function migrate(db: Db, dir = migrationsDir): Promise<number[]> {
  // Under the lock too: processes starting at once on an empty PostgreSQL would otherwise all
  // create the table, and all but one fail ("duplicate key value violates unique constraint
  // pg_type_typname_nsp_index": IF NOT EXISTS does not serialise).
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock(7250001)');
    await q.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  });
  const applied: number[] = [];
  for (const m of listMigrations(dir)) {
    const sql = fs.readFileSync(m.file, 'utf8');
    const done = await db.tx(async (q) => {
      // Serialises concurrent starts against one PostgreSQL; harmless on PGlite.
      await q.query('SELECT pg_advisory_xact_lock(7250001)');
      const seen = await q.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (seen.length > 0) return false;
      await q.exec(sql);
      await q.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        m.version,
        m.name,
      ]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
