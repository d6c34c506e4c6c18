// The synthetic archive of bench/search-latency.ts: V videos of 20 scenes, clustered 384-d
// vectors and Zipf-like words (w<rank>, log-uniform rank over 5000), generated inside the
// database from a fixed seed (setseed, ids from md5), so every build is the same archive. Built
// once per size and schema into an embedded database under .tmp/search-latency/ (gitignored) and
// opened from there on later runs: the 1M-scene build takes long, the queries do not.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../server/src/db/db.ts';
import { listMigrations, migrate } from '../server/src/db/migrate.ts';
import { openPglite } from '../server/src/db/pglite.ts';
import { SCENE_DOC, VIDEO_DOC } from '../server/src/search/documents.ts';

export const SCENES_PER_VIDEO = 20;
export const TEAM_ID = '6d0c1d2e-0000-4000-8000-00000000b001';
const CLUSTERS = 200;
/**
 * A third pool of noise, of a prime size: with the first two alone, video g + 1000 repeated video
 * g's vectors (50 scenes tied at 1M, and HNSW degrades on exact duplicates: recall 0.8). The
 * three indexes together repeat only after 997,000 videos.
 */
const NOISE_C = 997;
const VOCAB = 5000;
const CACHE = path.join(import.meta.dirname, '..', '.tmp', 'search-latency');

/** A synthetic word: log-uniform (Zipf-like) rank; the tokenizer keeps such words unchanged. */
export const WORD_SQL = `'w' || floor(exp(random() * ln(${VOCAB})))::int`;

export function videoIdSql(g: string): string {
  return `md5('v' || ${g})::uuid`;
}

function buildSql(videos: number): string[] {
  return [
    // Bulk-building the graphs once, at the end, is faster than growing them row by row.
    'DROP INDEX videos_embedding_hnsw; DROP INDEX scenes_embedding_hnsw; SELECT setseed(0.17);',
    // Cluster centres and two pools of noise: a vector = centre + noise + noise.
    `CREATE TEMP TABLE centres AS
       SELECT c, (SELECT array_agg(random() * 2 - 1)::vector(384) FROM generate_series(1, 384) WHERE c >= 0) AS v
       FROM generate_series(0, ${CLUSTERS - 1}) c;
     CREATE TEMP TABLE noise_a AS
       SELECT n, (SELECT array_agg((random() * 2 - 1) * 0.6)::vector(384) FROM generate_series(1, 384) WHERE n >= 0) AS v
       FROM generate_series(0, 999) n;
     CREATE TEMP TABLE noise_b AS
       SELECT n, (SELECT array_agg((random() * 2 - 1) * 0.3)::vector(384) FROM generate_series(1, 384) WHERE n >= 0) AS v
       FROM generate_series(0, 999) n;
     CREATE TEMP TABLE noise_c AS
       SELECT n, (SELECT array_agg((random() * 2 - 1) * 0.3)::vector(384) FROM generate_series(1, 384) WHERE n >= 0) AS v
       FROM generate_series(0, ${NOISE_C - 1}) n;`,
    `INSERT INTO teams (id, name) VALUES ('${TEAM_ID}', 'bench');
     INSERT INTO videos (id, team_id, filename, title, summary, status, embedding)
     SELECT ${videoIdSql('g')}, '${TEAM_ID}', 'v' || g || '.mp4', 'video ' || g,
            (SELECT string_agg(${WORD_SQL}, ' ') FROM generate_series(1, 30) WHERE g > 0),
            'completed', l2_normalize(c.v + a.v + b.v + n3.v)
     FROM generate_series(1, ${videos}) g
     JOIN centres c ON c.c = g % ${CLUSTERS}
     JOIN noise_a a ON a.n = (g * 7) % 1000
     JOIN noise_b b ON b.n = (g * 13) % 1000
     JOIN noise_c n3 ON n3.n = g % ${NOISE_C}
     ORDER BY g;
     INSERT INTO scenes (video_id, idx, start_ms, end_ms, description, embedding)
     SELECT ${videoIdSql('g')}, i, i * 5000, i * 5000 + 5000,
            (SELECT string_agg(${WORD_SQL}, ' ') FROM generate_series(1, 10) WHERE i >= 0 AND g > 0),
            l2_normalize(c.v + a.v + b.v + n3.v)
     FROM generate_series(1, ${videos}) g
     CROSS JOIN generate_series(0, ${SCENES_PER_VIDEO - 1}) i
     JOIN centres c ON c.c = (g + i) % ${CLUSTERS}
     JOIN noise_a a ON a.n = (g * 31 + i * 17) % 1000
     JOIN noise_b b ON b.n = (g * 7 + i * 101) % 1000
     JOIN noise_c n3 ON n3.n = (g * ${SCENES_PER_VIDEO} + i) % ${NOISE_C}
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
    `SET maintenance_work_mem = '${videos > 20_000 ? '1GB' : '512MB'}';
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
  const hash = createHash('sha256');
  for (const m of listMigrations().filter((m) => m.name.startsWith('search'))) {
    hash.update(fs.readFileSync(m.file));
  }
  for (const sql of buildSql(videos)) hash.update(sql);
  return path.join(CACHE, `${videos}-videos-${hash.digest('hex').slice(0, 12)}`);
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
