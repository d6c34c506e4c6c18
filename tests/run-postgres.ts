// `npm run test:postgres`: the database's integration tests again, on a real PostgreSQL with
// pgvector (TEST_DATABASE=postgres: tests/support/test-db.ts starts one server per test process,
// a database per test). The embedded database runs them in `npm run test:unit` (issue 41).
// Left out, because they are about the embedded database itself: its lock and load shedding,
// PGlite's own vacuum, the DATA_DIR start-up and admin commands, and the PGlite wire server.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Migrations, repositories, search, people, sessions, retention and the job queue. */
export const POSTGRES_SUITE = [
  'tests/integration/migrations.test.ts',
  'tests/integration/search.test.ts',
  'tests/integration/similar.test.ts',
  'tests/integration/sparse-ranking.test.ts',
  'tests/integration/keyword-lists.test.ts',
  'tests/integration/index-video.test.ts',
  'tests/integration/people.test.ts',
  'tests/integration/people-api.test.ts',
  'tests/integration/face-recognition.test.ts',
  'tests/integration/face-recompute-version.test.ts',
  'tests/integration/session-refresh.test.ts',
  'tests/integration/auth.test.ts',
  'tests/integration/accounts-delete.test.ts',
  'tests/integration/profile.test.ts',
  'tests/integration/retention.test.ts',
  'tests/integration/jobs.test.ts',
  'tests/integration/scheduler.test.ts',
  'tests/integration/videos.test.ts',
  'tests/integration/upload.test.ts',
  'tests/integration/multipart.test.ts',
  'tests/integration/pipeline.test.ts',
  'tests/integration/duplicates.test.ts',
  'tests/integration/content-hash-backfill.test.ts',
  'tests/integration/import.test.ts',
];

const vitest = path.join(ROOT, 'node_modules', '.bin', 'vitest');
const res = spawnSync(vitest, ['run', '--project', 'server', ...POSTGRES_SUITE], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE: 'postgres' },
});
process.exit(res.status ?? 1);
