// The synthetic archive of bench/search-latency.ts: V videos of 20 scenes, 384-d vectors with the
// nesting of a real archive's (topic, subtopic, video, scene) and Zipf-like words (w<rank>,
// log-uniform rank over 5000), generated inside the database from a fixed seed (setseed, ids
// from md5), so every build is the same archive. Built once per size and schema into an embedded
// database under .tmp/search-latency/ (gitignored) and opened from there on later runs: the
// 1M-scene build takes long, the queries do not.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../server/src/db/db.ts';
import { listMigrations, migrate } from '../server/src/db/migrate.ts';
import { openPglite } from '../server/src/db/pglite.ts';
import { openPostgres } from '../server/src/db/postgres.ts';
import { SCENE_DOC, VIDEO_DOC } from '../server/src/search/documents.ts';
import { prewarmGraphs, readGraphPages } from '../server/src/search/prewarm.ts';
import { spawnServedPglite } from './_pglite-server.ts';
import { startPostgres } from '../tests/support/postgres.ts';

export const SCENES_PER_VIDEO = 20;
export const TEAM_ID = '6d0c1d2e-0000-4000-8000-00000000b001';
/**
 * Vectors nest as embeddings of real scenes do: 200 topics of 25 subtopics, one offset per video
 * (its setting, its people) and a little per scene. A video's scenes come in 4 segments of 5,
 * each on a subtopic of its own (the first the video's), so a scene's neighbours are its
 * segment's scenes, then the same subtopic's other videos. A topic is one of 20 directions plus
 * one of 10, so that topics sharing one lie between the others, as topics of real embeddings
 * do. Two generators that fail a graph search, and real embeddings do not look like either
 * (bench/figures/search-latency.md, "Dense recall and the bench's vectors"): 200 topics each a direction of its own,
 * all equally far apart (islands the graph's upper layers do not link: HNSW recall@10 0.93 at
 * 200k); and session 9's sums of shared pools of noise, where a scene's neighbours were the few
 * sharing one pool vector, with nothing nearer in between to lead to them (0.89 at 1M, even at
 * ef_search 1000).
 */
const TOPICS = 200;
const TOPIC_A = 20;
const SUBTOPICS = TOPICS * 25;
const SEGMENT = 5;
/** Scene noise: a pool of prime size, so that no two scenes of a video share one. */
const SCENE_NOISE = 997;
const VOCAB = 5000;
const CACHE = path.join(import.meta.dirname, '..', '.tmp', 'search-latency');

/** A synthetic word: log-uniform (Zipf-like) rank; the tokenizer keeps such words unchanged. */
export const WORD_SQL = `'w' || floor(exp(random() * ln(${VOCAB})))::int`;

export function videoIdSql(g: string): string {
  return `md5('v' || ${g})::uuid`;
}

/** n random vectors of 384 numbers in [-scale, scale], keyed 0..n-1 (or from..n). */
function randomVectors(table: string, from: number, to: number, scale: number): string {
  return `CREATE TEMP TABLE ${table} AS
       SELECT k, (SELECT array_agg((random() * 2 - 1) * ${scale})::vector(384) FROM generate_series(1, 384) WHERE k >= 0) AS v
       FROM generate_series(${from}, ${to}) k;`;
}

/** The subtopic of video g's segment `seg` (SQL). */
const subtopicSql = (g: string, seg: string): string =>
  `((${g}) * 7919 + (${seg}) * 1237) % ${SUBTOPICS}`;

/**
 * The build's statements. graphMemory is the HNSW build's maintenance_work_mem: the embedded
 * default's, unless a PostgreSQL server is given more (buildInto); it changes the build's speed,
 * not the archive, so the cache's hash is taken with the default.
 */
function buildSql(videos: number, graphMemory = videos > 20_000 ? '1GB' : '512MB'): string[] {
  return [
    // Bulk-building the graphs once, at the end, is faster than growing them row by row.
    'DROP INDEX videos_embedding_hnsw; DROP INDEX scenes_embedding_hnsw; SELECT setseed(0.17);',
    [
      randomVectors('topic_a', 0, TOPIC_A - 1, 0.8),
      randomVectors('topic_b', 0, TOPICS / TOPIC_A - 1, 0.8),
      randomVectors('subtopics', 0, SUBTOPICS - 1, 0.6),
      randomVectors('video_offsets', 1, videos, 0.45),
      randomVectors('scene_noise', 0, SCENE_NOISE - 1, 0.3),
    ].join('\n     '),
    // Subtopic s belongs to topic s % TOPICS.
    `INSERT INTO teams (id, name) VALUES ('${TEAM_ID}', 'bench');
     INSERT INTO videos (id, team_id, filename, title, summary, status, embedding)
     SELECT ${videoIdSql('g')}, '${TEAM_ID}', 'v' || g || '.mp4', 'video ' || g,
            (SELECT string_agg(${WORD_SQL}, ' ') FROM generate_series(1, 30) WHERE g > 0),
            'completed', l2_normalize(ta.v + tb.v + s.v + o.v)
     FROM generate_series(1, ${videos}) g
     JOIN subtopics s ON s.k = ${subtopicSql('g', '0')}
     JOIN topic_a ta ON ta.k = s.k % ${TOPICS} % ${TOPIC_A}
     JOIN topic_b tb ON tb.k = s.k % ${TOPICS} / ${TOPIC_A}
     JOIN video_offsets o ON o.k = g
     ORDER BY g;
     INSERT INTO scenes (video_id, idx, start_ms, end_ms, description, embedding)
     SELECT ${videoIdSql('g')}, i, i * 5000, i * 5000 + 5000,
            (SELECT string_agg(${WORD_SQL}, ' ') FROM generate_series(1, 10) WHERE i >= 0 AND g > 0),
            l2_normalize(ta.v + tb.v + s.v + o.v + n.v)
     FROM generate_series(1, ${videos}) g
     CROSS JOIN generate_series(0, ${SCENES_PER_VIDEO - 1}) i
     JOIN subtopics s ON s.k = ${subtopicSql('g', `i / ${SEGMENT}`)}
     JOIN topic_a ta ON ta.k = s.k % ${TOPICS} % ${TOPIC_A}
     JOIN topic_b tb ON tb.k = s.k % ${TOPICS} / ${TOPIC_A}
     JOIN video_offsets o ON o.k = g
     JOIN scene_noise n ON n.k = (g * ${SCENES_PER_VIDEO} + i) % ${SCENE_NOISE}
     ORDER BY g, i;`,
    // The index rows indexVideo would write for these words, in bulk: documents (the triggers
    // count them), the impacts' average length, then the postings without their indexes.
    `INSERT INTO search_documents (video_id, scene_idx, team_id, kind, doc_len)
     SELECT id, -1, team_id, ${VIDEO_DOC}, 30 FROM videos;
     INSERT INTO search_documents (video_id, scene_idx, team_id, kind, doc_len)
     SELECT video_id, idx, '${TEAM_ID}', ${SCENE_DOC}, 10 FROM scenes;
     UPDATE search_corpus_stats SET impact_avgdl = total_len::float8 / n_docs;
     ALTER TABLE search_postings DROP CONSTRAINT search_postings_pkey;
     DROP INDEX search_postings_impact_idx;
     INSERT INTO search_postings (team_id, kind, term, video_id, scene_idx, tf, doc_len, impact)
     SELECT '${TEAM_ID}', ${VIDEO_DOC}, t, id, -1, count(*), 30, search_impact(count(*)::int, 30, s.impact_avgdl)
     FROM videos, unnest(string_to_array(summary, ' ')) t, search_corpus_stats s
     WHERE s.kind = ${VIDEO_DOC} GROUP BY id, t, s.impact_avgdl;
     INSERT INTO search_postings (team_id, kind, term, video_id, scene_idx, tf, doc_len, impact)
     SELECT '${TEAM_ID}', ${SCENE_DOC}, t, video_id, idx, count(*), 10, search_impact(count(*)::int, 10, s.impact_avgdl)
     FROM scenes, unnest(string_to_array(description, ' ')) t, search_corpus_stats s
     WHERE s.kind = ${SCENE_DOC} GROUP BY video_id, idx, t, s.impact_avgdl;
     SET maintenance_work_mem = '512MB';
     ALTER TABLE search_postings ADD PRIMARY KEY (video_id, scene_idx, term);
     CREATE INDEX search_postings_impact_idx
       ON search_postings (team_id, kind, term, impact DESC, video_id, scene_idx);
     ANALYZE;`,
    // 1M scenes' graph is about 2 GB: as much memory as the embedded build can take.
    `SET maintenance_work_mem = '${graphMemory}';
     CREATE INDEX videos_embedding_hnsw ON videos USING hnsw (embedding vector_cosine_ops);
     CREATE INDEX scenes_embedding_hnsw ON scenes USING hnsw (embedding vector_cosine_ops);
     CHECKPOINT;`,
  ];
}

/**
 * Same size, same generator, same search migrations: same folder. Other migrations are applied
 * to the cached archive when it is opened.
 */
export function cacheDir(videos: number): string {
  return path.join(CACHE, `${videos}-videos-${archiveHash(videos)}`);
}

function archiveHash(videos: number): string {
  const hash = createHash('sha256');
  for (const m of listMigrations().filter((m) => m.name.startsWith('search'))) {
    hash.update(fs.readFileSync(m.file));
  }
  for (const sql of buildSql(videos)) hash.update(sql);
  return hash.digest('hex').slice(0, 12);
}

/** Opens the archive of this size, building it first when it is not on disk yet. */
export async function openArchive(videos: number): Promise<{ db: Db; builtMs?: number }> {
  const dir = cacheDir(videos);
  if (fs.existsSync(dir)) {
    const db = await openPglite(dir);
    await migrate(db);
    return { db };
  }
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  const started = performance.now();
  const db = await openPglite(partial);
  await migrate(db);
  for (const [i, sql] of buildSql(videos).entries()) {
    const t = performance.now();
    await db.exec(sql);
    console.log(`  build step ${i + 1}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  await db.close();
  fs.renameSync(partial, dir);
  return { db: await openPglite(dir), builtMs: performance.now() - started };
}

export interface BenchDatabase {
  db: Db;
  /** Where the archive is, for the report. */
  label: string;
  builtMs?: number;
  /** Reads the HNSW graphs into the buffers as a started server would; returns the pages. */
  readGraphs(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The archive where SEARCH_DATABASE says: unset, the embedded PGlite on disk (the product's
 * default); `served`, the same cached folder served over the wire protocol and reached through
 * node-postgres, as the tests' DATABASE_URL is (bench/_pglite-server.ts); a postgres:// URL
 * (with pgvector), that database, the archive built into it on first use (one size each);
 * `postgres`, a PostgreSQL server of its own (tests/support/postgres.ts), built into each run.
 */
export async function openBenchArchive(videos: number, where = ''): Promise<BenchDatabase> {
  if (!where) {
    const { db, builtMs } = await openArchive(videos);
    return {
      db,
      builtMs,
      label: 'embedded PGlite on disk',
      readGraphs: () => prewarmGraphs(db),
      close: () => db.close(),
    };
  }
  if (where === 'served') {
    const built = await openArchive(videos);
    await built.db.close();
    const served = await spawnServedPglite(cacheDir(videos));
    const db = await openPostgres(served.url);
    return {
      db,
      builtMs: built.builtMs,
      label: 'DATABASE_URL: the same folder, PGlite served over the wire, node-postgres',
      // Still PGlite behind the wire, whose page reads are the slow ones.
      readGraphs: () => readGraphPages(db),
      async close() {
        await db.close();
        const exited = once(served.child, 'exit');
        served.child.kill('SIGTERM');
        await exited;
      },
    };
  }
  // `postgres`: a throwaway server of Debian's PostgreSQL with pgvector, as the tests start.
  const own = where === 'postgres' ? await startPostgres() : undefined;
  const url = own?.url ?? where;
  const db = await openPostgres(url);
  await migrate(db);
  const builtMs = await buildInto(db, videos);
  return {
    db,
    builtMs,
    label: own
      ? `PostgreSQL ${await serverVersion(db)} with pgvector (own server, default settings)`
      : `DATABASE_URL ${new URL(url).host}`,
    readGraphs: () => prewarmPostgres(db),
    async close() {
      await db.close();
      own?.stop();
    },
  };
}

/**
 * On a PostgreSQL server, the graphs into its shared buffers with pg_prewarm when the database
 * has the extension (an operator's server would have them there after its first searches, or
 * after a restart with pg_prewarm's autoprewarm); without it, nothing (0 pages).
 */
async function prewarmPostgres(db: Db): Promise<number> {
  const [has] = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm'");
  if (!has) return 0;
  const [row] = await db.query<{ pages: string }>(
    `SELECT sum(pg_prewarm(c))::text AS pages
     FROM unnest(ARRAY['videos_embedding_hnsw', 'scenes_embedding_hnsw']::regclass[]) c`,
  );
  return Number(row?.pages ?? 0);
}

async function serverVersion(db: Db): Promise<string> {
  const [row] = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
  return row!.v;
}

/** Builds the archive into an empty database once; undefined when it was there already. */
async function buildInto(db: Db, videos: number): Promise<number | undefined> {
  const hash = `${videos}-${archiveHash(videos)}`;
  await db.exec('CREATE TABLE IF NOT EXISTS bench_archive (hash text NOT NULL)');
  const [held] = await db.query<{ hash: string }>('SELECT hash FROM bench_archive');
  if (held?.hash === hash) return undefined;
  if (held)
    throw new Error(`this database holds another bench archive (${held.hash}): give an empty one`);
  const started = performance.now();
  // A graph larger than maintenance_work_mem is built on disk, tuple by tuple, many times slower:
  // a server of our own has the memory for 1M scenes' ~2 GB (SEARCH_BUILD_MEMORY to change it).
  const memory = process.env.SEARCH_BUILD_MEMORY ?? (videos > 20_000 ? '3GB' : '1GB');
  // One connection for all of it: the build's temporary tables live in its session.
  await db.tx(async (q) => {
    for (const [i, sql] of buildSql(videos, memory).entries()) {
      const t = performance.now();
      await q.exec(sql);
      console.log(`  build step ${i + 1}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    await q.query('INSERT INTO bench_archive (hash) VALUES ($1)', [hash]);
  });
  return performance.now() - started;
}
