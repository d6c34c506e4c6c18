// Upgrades from every earlier schema version (issue 41), on the database the tests run on (the
// embedded one, and a real PostgreSQL with pgvector under TEST_DATABASE=postgres): for each
// migration N before the last, a new database is migrated up to N only, given the rows an
// installation of that version would hold, then migrated to the latest. Its schema must then be
// the schema migrated from empty, every row must still be there with the values it had, and the
// tables later migrations derive from earlier ones (search terms and statistics, session
// families) must agree with their sources. New migrations are picked up from server/migrations/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../server/src/db/db.ts';
import { listMigrations, migrate } from '../../server/src/db/migrate.ts';
import { openEmptyTestDb, TEST_DATABASE } from '../support/test-db.ts';

const MIGRATIONS = listMigrations();
const LATEST = MIGRATIONS.at(-1)!.version;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-migrations-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A folder holding the migrations up to `version` only. */
function migrationsUpTo(version: number): string {
  const dir = path.join(tmp, String(version));
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(dir);
  for (const m of MIGRATIONS.filter((m) => m.version <= version)) {
    fs.copyFileSync(m.file, path.join(dir, path.basename(m.file)));
  }
  return dir;
}

const T = '00000000-0000-4000-8000-00000000000a';
const U = '00000000-0000-4000-8000-00000000000b';
const V = '00000000-0000-4000-8000-00000000000c';
const V2 = '00000000-0000-4000-8000-00000000000d';
const S1 = '00000000-0000-4000-8000-000000000001';
const S2 = '00000000-0000-4000-8000-000000000002';
const M = '00000000-0000-4000-8000-000000000003';
const P = '00000000-0000-4000-8000-000000000004';
const vector = (n: number, at: number) =>
  `[${Array.from({ length: n }, (_, i) => (i === at ? 1 : 0)).join(',')}]`;

/** The postings of the seeded video's documents; `impact` adds a value for 009's column. */
function postings(impact: string): string {
  const row = (kind: number, term: string, scene: number, tf: number, len: number) =>
    `($2, ${kind}, '${term}', $1, ${scene}, ${tf}, ${len}${impact})`;
  return (
    `INSERT INTO search_postings (team_id, kind, term, video_id, scene_idx, tf, doc_len` +
    `${impact ? ', impact' : ''}) VALUES ` +
    [
      row(0, 'harbour', -1, 1, 4),
      row(0, 'boats', -1, 2, 4),
      row(1, 'boats', 0, 1, 4),
      row(1, 'harbour', 0, 1, 4),
      row(1, 'ann', 1, 1, 5),
      row(1, 'pier', 1, 1, 5),
    ].join(', ')
  );
}

/**
 * The rows of an installation, each set from the schema version that brought its table (using
 * only the columns that version had).
 */
const SEEDS: { since: number; until?: number; statements: [string, unknown[]][] }[] = [
  {
    since: 1,
    statements: [
      [`INSERT INTO teams (id, name) VALUES ($1, 'Harbour team')`, [T]],
      [
        `INSERT INTO users (id, team_id, email, full_name, password_hash, must_change_password)
         VALUES ($1, $2, 'old@example.com', 'Old User', 'scrypt$hash', false)`,
        [U, T],
      ],
      [
        `INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at, refresh_until)
         VALUES ($1, $2, 'token-1', '2024-01-01T00:00:00Z', '2030-01-01T00:00:00Z', '2030-02-01T00:00:00Z')`,
        [S1, U],
      ],
      [
        `INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at, refresh_until, revoked_at)
         VALUES ($1, $2, 'token-2', '2024-01-02T00:00:00Z', '2030-01-01T00:00:00Z', '2030-02-01T00:00:00Z',
                 '2024-01-03T00:00:00Z')`,
        [S2, U],
      ],
      [
        `INSERT INTO videos (id, team_id, owner_id, filename, title, summary, tags, status,
           about_this_video, output_language, video_date, video_length, source_key, source_size,
           thumbnail_key, output_data, embedding, created_at)
         VALUES ($1, $2, $3, 'harbour.mp4', 'The harbour', 'Boats at dawn.', '[{"name":"boats"}]',
           'completed', 'A walk', 'en', '2023-05-06T07:08:09', 12.5, 'input/x/source.mp4', 123456,
           'output/x/thumbnail.jpg', '{"captions":[]}', $4::vector, '2024-01-01T00:00:00Z')`,
        [V, T, U, vector(384, 3)],
      ],
      [
        `INSERT INTO videos (id, team_id, owner_id, filename, status, created_at)
         VALUES ($1, $2, $3, 'unfinished.mp4', 'in_progress', '2024-02-01T00:00:00Z')`,
        [V2, T, U],
      ],
      [
        `INSERT INTO video_people (video_id, position, name, image_key)
         VALUES ($1, 0, 'Ann Lee', 'input/x/people/0.jpg')`,
        [V],
      ],
      [
        `INSERT INTO scenes (video_id, idx, start_ms, end_ms, description, frames, embedding)
         VALUES ($1, 0, 0, 4000, 'Boats leave the harbour.', '[{"key":"f0.jpg"}]', $2::vector),
                ($1, 1, 4000, 12500, 'Ann Lee on the pier.', '[]', $3::vector)`,
        [V, vector(384, 5), vector(384, 7)],
      ],
    ],
  },
  {
    since: 2,
    statements: [
      [
        `INSERT INTO throttle_events (scope, key, client_ip, at)
         VALUES ('login', 'old@example.com', '10.0.0.1', '2024-01-01T00:00:00Z')`,
        [],
      ],
      [
        `INSERT INTO password_resets (user_id, token_hash, created_at, expires_at)
         VALUES ($1, 'reset-1', '2024-01-01T00:00:00Z', '2030-01-01T00:00:00Z')`,
        [U],
      ],
      [
        `INSERT INTO email_changes (user_id, new_email, code_hash, created_at, expires_at)
         VALUES ($1, 'new@example.com', 'code', '2024-01-01T00:00:00Z', '2030-01-01T00:00:00Z')`,
        [U],
      ],
    ],
  },
  {
    since: 3,
    statements: [
      [
        `INSERT INTO multipart_uploads (id, video_id, storage_key, backend, part_size, created_at, expires_at)
         VALUES ($1, $2, 'input/y/source.mp4', 'local', 8388608, '2024-01-01T00:00:00Z', '2030-01-01T00:00:00Z')`,
        [M, V2],
      ],
      [
        `INSERT INTO upload_parts (upload_id, part_number, etag, size) VALUES ($1, 1, 'etag-1', 8388608)`,
        [M],
      ],
    ],
  },
  {
    since: 4,
    statements: [
      [
        `INSERT INTO jobs (name, video_id, state, attempts, created_at, updated_at)
         VALUES ('analyse-video', $1, 'done', 1, '2024-01-01T00:00:00Z', '2024-01-01T00:01:00Z'),
                ('analyse-video', $2, 'queued', 0, '2024-02-01T00:00:00Z', '2024-02-01T00:00:00Z')`,
        [V, V2],
      ],
      [
        `INSERT INTO pipeline_steps (video_id, step, data) VALUES ($1, 'probe', '{"durationMs":12500}')`,
        [V2],
      ],
    ],
  },
  {
    since: 5,
    statements: [
      [
        `INSERT INTO search_documents (video_id, scene_idx, team_id, kind, doc_len)
         VALUES ($1, -1, $2, 0, 4), ($1, 0, $2, 1, 4), ($1, 1, $2, 1, 5)`,
        [V, T],
      ],
    ],
  },
  // Postings: without their impact before 009, with it (as the indexer writes it) from 009 on.
  { since: 5, until: 8, statements: [[postings(''), [V, T]]] },
  { since: 9, statements: [[postings(', 0.5'), [V, T]]] },
  {
    since: 7,
    statements: [
      [
        `INSERT INTO job_schedules (name, next_run_at) VALUES ('prune-throttle', '2024-01-01T01:00:00Z')`,
        [],
      ],
      [
        `INSERT INTO mail_outbox (to_address, subject, body, created_at, send_before)
         VALUES ('old@example.com', 'Hello', 'Body', '2024-01-01T00:00:00Z', '2030-01-01T00:00:00Z')`,
        [],
      ],
    ],
  },
  {
    // From 013 on, signing in writes the session's family too.
    since: 13,
    statements: [
      [
        `INSERT INTO session_families (id, user_id, revoked_at)
         SELECT family_id, user_id, revoked_at FROM sessions`,
        [],
      ],
    ],
  },
  {
    since: 10,
    statements: [
      [
        `INSERT INTO scene_faces (video_id, scene_idx, face_idx, embedding, person_name, similarity)
         VALUES ($1, 1, 0, '{0.1,0.2,0.3}', 'Ann Lee', 0.8)`,
        [V],
      ],
    ],
  },
  {
    since: 15,
    statements: [
      [
        `INSERT INTO scene_faces (video_id, scene_idx, face_idx, descriptor, frame_idx, crop_key)
         VALUES ($1, 0, 0, $2::vector, 3, 'output/x/faces/0.jpg')`,
        [V, vector(128, 1)],
      ],
    ],
  },
  {
    since: 16,
    statements: [
      [`INSERT INTO people (id, team_id, name) VALUES ($1, $2, 'Ann Lee')`, [P, T]],
      [`UPDATE scene_faces SET person_id = $1 WHERE descriptor IS NOT NULL`, [P]],
      [`SELECT people_refresh(ARRAY[$1::uuid], true)`, [P]],
    ],
  },
];

/** Tables, columns, indexes, constraints, triggers, functions and extensions, in words. */
async function schemaOf(q: Queryable): Promise<Record<string, string[]>> {
  const lines = async (sql: string): Promise<string[]> =>
    (await q.query<{ line: string }>(sql)).map((r) => r.line).sort();
  return {
    columns: await lines(
      `SELECT concat_ws(' ', table_name, column_name, data_type, udt_name, is_nullable,
                        coalesce(column_default, '-'), is_identity) AS line
       FROM information_schema.columns WHERE table_schema = 'public'`,
    ),
    indexes: await lines(
      `SELECT concat_ws(' ', tablename, indexdef) AS line FROM pg_indexes WHERE schemaname = 'public'`,
    ),
    constraints: await lines(
      `SELECT concat_ws(' ', conrelid::regclass::text, conname, pg_get_constraintdef(oid)) AS line
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace`,
    ),
    triggers: await lines(
      `SELECT pg_get_triggerdef(oid) AS line FROM pg_trigger WHERE NOT tgisinternal`,
    ),
    functions: await lines(
      `SELECT concat_ws(' ', proname, pg_get_function_identity_arguments(oid), md5(prosrc)) AS line
       FROM pg_proc WHERE pronamespace = 'public'::regnamespace`,
    ),
    extensions: await lines(`SELECT concat_ws(' ', extname, extversion) AS line FROM pg_extension`),
    migrations: (
      await q.query<{ v: number }>('SELECT version AS v FROM schema_migrations ORDER BY version')
    ).map((r) => String(r.v)),
  };
}

/** Every row of every table (but the migrations' own), as JSON objects, by table. */
async function rowsOf(q: Queryable): Promise<Map<string, Record<string, unknown>[]>> {
  const tables = await q.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'
     ORDER BY table_name`,
  );
  const out = new Map<string, Record<string, unknown>[]>();
  for (const { name } of tables) {
    const rows = await q.query<{ row: Record<string, unknown> }>(
      `SELECT row_to_json(t) AS row FROM ${name} t`,
    );
    out.set(
      name,
      rows.map((r) => (typeof r.row === 'string' ? JSON.parse(r.row) : r.row)),
    );
  }
  return out;
}

/** What later migrations derive from earlier tables agrees with those tables. */
async function expectDerivedTablesAgree(q: Queryable): Promise<void> {
  const termsOff = await q.query(
    `SELECT p.team_id, p.kind, p.term FROM search_postings p
     GROUP BY p.team_id, p.kind, p.term
     HAVING count(*) <> coalesce((SELECT df FROM search_terms t WHERE t.team_id = p.team_id
       AND t.kind = p.kind AND t.term = p.term), -1)`,
  );
  expect(termsOff).toEqual([]);
  const statsOff = await q.query(
    `SELECT d.team_id, d.kind FROM (
       SELECT team_id, kind, count(*)::int AS n, sum(doc_len)::bigint AS len
       FROM search_documents GROUP BY team_id, kind) d
     LEFT JOIN search_corpus_stats s ON s.team_id = d.team_id AND s.kind = d.kind
     WHERE s.n_docs IS DISTINCT FROM d.n OR s.total_len IS DISTINCT FROM d.len`,
  );
  expect(statsOff).toEqual([]);
  const impactless = await q.query(
    `SELECT 1 FROM search_postings WHERE impact IS NULL OR impact <= 0`,
  );
  expect(impactless).toEqual([]);
  const familiesMissing = await q.query(
    `SELECT s.id FROM sessions s LEFT JOIN session_families f ON f.id = s.family_id
     WHERE f.id IS NULL OR f.user_id <> s.user_id`,
  );
  expect(familiesMissing).toEqual([]);
  // A family is revoked only when every session of it was.
  const families = await q.query<{ revoked: boolean; n: number }>(
    `SELECT f.revoked_at IS NOT NULL AS revoked, count(*)::int AS n FROM session_families f
     GROUP BY 1 ORDER BY 1`,
  );
  expect(families).toEqual([
    { revoked: false, n: 1 },
    { revoked: true, n: 1 },
  ]);
}

let latestSchema: Promise<Record<string, string[]>> | undefined;

/** The schema of a database migrated from empty (the test databases' own). */
function fromEmpty(): Promise<Record<string, string[]>> {
  latestSchema ??= (async () => {
    const db = await openEmptyTestDb();
    try {
      await migrate(db, migrationsUpTo(LATEST));
      return await schemaOf(db);
    } finally {
      await db.close();
    }
  })();
  return latestSchema;
}

async function withEmptyDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openEmptyTestDb();
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe(`migrations on the ${TEST_DATABASE} database`, () => {
  it('has more than one migration to upgrade from', () => {
    expect(MIGRATIONS.length).toBeGreaterThan(1);
    expect(new Set(MIGRATIONS.map((m) => m.version)).size).toBe(MIGRATIONS.length);
  });

  it('from empty, applies every migration once and again applies none', async () => {
    await withEmptyDb(async (db) => {
      const all = migrationsUpTo(LATEST);
      expect(await migrate(db, all)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(db, all)).toEqual([]);
      expect(await schemaOf(db)).toEqual(await fromEmpty());
    });
  }, 120_000);

  it('migrates once when several processes start at once on an empty database', async () => {
    // Six migrations at once over one pool: on PostgreSQL six connections, as six processes
    // of a deployment starting together (before the fix all but one failed creating
    // schema_migrations); the embedded database runs them one after the other.
    await withEmptyDb(async (db) => {
      const all = migrationsUpTo(LATEST);
      const applied = await Promise.all(Array.from({ length: 6 }, () => migrate(db, all)));
      expect(applied.flat().sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await schemaOf(db)).toEqual(await fromEmpty());
    });
  }, 120_000);

  for (const { version, name } of MIGRATIONS.filter((m) => m.version < LATEST)) {
    it(`upgrades from ${String(version).padStart(3, '0')}_${name} with its data`, async () => {
      await withEmptyDb(async (db) => {
        await migrate(db, migrationsUpTo(version));
        for (const seed of SEEDS.filter(
          (s) => s.since <= version && version <= (s.until ?? LATEST),
        )) {
          for (const [sql, params] of seed.statements) await db.query(sql, params);
        }
        const before = await rowsOf(db);

        // The migrations as this file found them, should another be added meanwhile.
        const applied = await migrate(db, migrationsUpTo(LATEST));
        expect(applied).toEqual(
          MIGRATIONS.filter((m) => m.version > version).map((m) => m.version),
        );
        expect(await schemaOf(db)).toEqual(await fromEmpty());

        // Every row is still there with the values it had (new columns aside).
        const after = await rowsOf(db);
        for (const [table, rows] of before) {
          const now = after.get(table) ?? [];
          expect(now.length, table).toBe(rows.length);
          for (const row of rows) {
            expect(now, `${table} keeps ${JSON.stringify(row)}`).toContainEqual(
              expect.objectContaining(row),
            );
          }
        }
        await expectDerivedTablesAgree(db);
      });
    }, 120_000);
  }
});
