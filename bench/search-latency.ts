// Search latency on the embedded database (PGlite, on disk as the product runs it) at 10,000
// videos / 200,000 scenes and 50,000 videos / 1,000,000 scenes of synthetic vectors, nested as
// real embeddings are (topic, subtopic, video, scene), and Zipf-like words
// (bench/_search-archive.ts: seeded, built once, cached under .tmp/). For each method (dense,
// keyword, hybrid) of scene and video search, scene search within one video, and similar video /
// similar scene: p50 / p95 against the bar (20 ms at 200k scenes, 50 ms at 1M; 20 ms at every
// size on a PostgreSQL server, issue 41).
// Beside them, in the same run: the exact BM25 reference (tests/support/exact-bm25.ts) with the
// keyword search's recall@10 against it, HNSW recall@10 against an exact scan, the time to index
// one more video of 200 scenes, and the keyword index's size on disk per 1,000 scenes.
//   npm run bench -- search-latency                      (both sizes; the first build is long)
//   SEARCH_VIDEOS=10000 node --import tsx bench/search-latency.ts   (one size)
//   SEARCH_DATABASE=served ...   through DATABASE_URL: the cached folder served over the wire,
//   as the tests' PostgreSQL; SEARCH_DATABASE=postgres://... a PostgreSQL with pgvector (empty
//   the first time: the archive is built into it); SEARCH_DATABASE=postgres a PostgreSQL server
//   of its own (Debian's, with pgvector, as the tests start it), the archive built into it
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../server/src/config.ts';
import type { Db } from '../server/src/db/db.ts';
import { denseScenes, denseVideos } from '../server/src/search/dense.ts';
import { SCENE_DOC, VIDEO_DOC } from '../server/src/search/documents.ts';
import { parseVector, toVectorLiteral } from '../server/src/db/vector.ts';
import { indexVideo } from '../server/src/search/index-video.ts';
import { searchScenes, searchVideos, type SearchParams } from '../server/src/search/search.ts';
import { documentTerms, sparseSearch, type SparseQuery } from '../server/src/search/sparse.ts';
import { preloadLists } from '../server/src/search/prewarm.ts';
import { keywordLists } from '../server/src/search/term-lists.ts';
import { vacuumSearch } from '../server/src/search/vacuum.ts';
import { searchTerms, termFrequencies } from '../server/src/search/tokenize.ts';
import { exactBm25, recallAtK, type ListedQuery } from '../tests/support/exact-bm25.ts';
import { otherProcess } from '../tests/support/other-process.ts';
import { openBenchArchive, SCENES_PER_VIDEO, TEAM_ID, videoIdSql } from './_search-archive.ts';
import { mulberry32 } from '../server/src/lib/seeded-random.ts';

const SIZES = (process.env.SEARCH_VIDEOS ?? '10000,50000').split(',').map(Number);
const QUERIES = Number(process.env.QUERIES ?? 50);
/**
 * Untimed queries of each kind first, on other items and words than the timed ones: a server
 * that has run a while has its code compiled (the first ~25 similar-scene queries of a fresh
 * process took 15-50 ms where later ones on items never seen took under 13), while the data the
 * timed queries touch stays as cold as before.
 */
const WARMUP = 20;
const K = 10;
/** On a PostgreSQL server (a postgres:// URL or `postgres`), not the embedded database. */
const onServer = (process.env.SEARCH_DATABASE ?? '').startsWith('postgres');
/**
 * p95 bar per archive size: embedded 20 ms at 200k scenes, 50 at 1M (issue 17); on a PostgreSQL
 * server 20 ms at every size, with HNSW recall@10 >= 0.99 and keyword recall 1.0 (issue 41).
 */
const barMs = (scenes: number): number => (onServer || scenes <= 200_000 ? 20 : 50);
const DENSE_RECALL_BAR = onServer ? 0.99 : 0.95;
const KEYWORD_RECALL_BAR = onServer ? 1 : 0.99;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const out = await fn();
  return [performance.now() - t, out];
}

function load(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
}

interface Row {
  name: string;
  ms: number[];
  /** Reference rows are printed beside the bar but not held to it. */
  reference?: boolean;
}

/** One more video of 200 scenes, its words drawn like the archive's, indexed as the pipeline does. */
async function indexOneVideo(db: Db, videos: number): Promise<number> {
  const rnd = mulberry32(99);
  const word = (): string => `w${Math.floor(Math.exp(rnd() * Math.log(5000)))}`;
  const words = (n: number): string => Array.from({ length: n }, word).join(' ');
  const [video] = await db.query<{ id: string }>(
    `INSERT INTO videos (id, team_id, filename, title, summary, status)
     VALUES (${videoIdSql(String(videos + 1))}, $1, 'new.mp4', 'new', $2, 'completed') RETURNING id`,
    [TEAM_ID, words(30)],
  );
  const id = video!.id;
  await db.query(
    `INSERT INTO scenes (video_id, idx, start_ms, end_ms, description)
     SELECT $1, i, i * 5000, i * 5000 + 5000, d FROM unnest($2::text[]) WITH ORDINALITY AS t(d, i)`,
    [id, Array.from({ length: 200 }, () => words(10))],
  );
  const ctx = { db, config: loadConfig({ DATA_DIR: '/tmp/unused' }) };
  const [ms] = await time(() => indexVideo(ctx, id));
  await db.query('DELETE FROM videos WHERE id = $1', [id]); // the cached archive stays as built
  return ms;
}

async function keywordIndexBytes(db: Db): Promise<number> {
  const [row] = await db.query<{ bytes: string }>(
    `SELECT sum(pg_total_relation_size(c))::text AS bytes
     FROM unnest(ARRAY['search_postings', 'search_documents', 'search_terms', 'search_corpus_stats']::regclass[]) c`,
  );
  return Number(row!.bytes);
}

async function measure(videos: number): Promise<boolean> {
  const scenes = videos * SCENES_PER_VIDEO;
  const { db, builtMs, label, readGraphs, close } = await openBenchArchive(
    videos,
    process.env.SEARCH_DATABASE,
  );
  console.log(`\n${videos} videos, ${scenes} scenes, ${label} (load average ${load()})`);
  if (builtMs !== undefined) console.log(`built and cached in ${(builtMs / 1000).toFixed(0)} s`);
  // As the product's hourly vacuum-search job leaves it: without it every index-only scan visits
  // the table too (the cached archive was built without it; a later run's vacuum is short).
  const [vacuumMs] = await time(() => vacuumSearch(db));
  console.log(`vacuum (analyze) of the search tables: ${(vacuumMs / 1000).toFixed(1)} s`);
  // As a server does once started: the most frequent terms' lists into memory, then the graphs
  // into the buffers (search/prewarm.ts).
  const lists = keywordLists(db);
  const [preloadMs, preloaded] = await time(() => preloadLists(db, lists));
  console.log(
    `keyword lists read ahead: ${preloaded} postings, ${(lists.bytes() / 2 ** 20).toFixed(0)} MB, in ${(preloadMs / 1000).toFixed(1)} s`,
  );
  const [prewarmMs, pages] = await time(readGraphs);
  console.log(
    `HNSW graphs read into the buffers: ${((pages * 8192) / 2 ** 20).toFixed(0)} MB in ${(prewarmMs / 1000).toFixed(1)} s`,
  );
  const ctx = { db, config: loadConfig({ DATA_DIR: '/tmp/unused' }) };
  const teamId = TEAM_ID;
  const rnd = mulberry32(7);

  // Queries: stored scene vectors moved a little, 3 words of the vocabulary, and items.
  const item = (i: number): number => 1 + ((i * 7919) % videos);
  const samples = await db.query<{ e: string }>(
    `SELECT s.embedding::text AS e FROM unnest($1::int[]) WITH ORDINALITY AS g(g, o)
     JOIN scenes s ON s.video_id = ${videoIdSql('g.g')} AND s.idx = 3 ORDER BY g.o`,
    [Array.from({ length: QUERIES + WARMUP }, (_, i) => item(i + QUERIES))],
  );
  const vectors = samples.map((s) => parseVector(s.e).map((x) => x + (rnd() - 0.5) * 0.02));
  const texts = Array.from(
    { length: QUERIES + WARMUP },
    (_, i) => `w${(i * 37) % 300} w${(i * 91) % 2000} w${i + 7}`,
  );
  const ids = await db.query<{ id: string }>(
    `SELECT ${videoIdSql('g')} AS id FROM unnest($1::int[]) WITH ORDINALITY AS t(g, o) ORDER BY o`,
    [Array.from({ length: QUERIES + WARMUP }, (_, i) => item(i))],
  );
  const itemIds = ids.map((r) => r.id);
  const sceneOf = (i: number): number => (i * 13) % SCENES_PER_VIDEO;

  const rows: Row[] = [];
  const run = async (name: string, fn: (i: number) => Promise<unknown>): Promise<void> => {
    for (let i = QUERIES; i < QUERIES + WARMUP; i++) await fn(i);
    const ms: number[] = [];
    for (let i = 0; i < QUERIES; i++) ms.push((await time(() => fn(i)))[0]);
    rows.push({ name, ms });
  };
  const base = { teamId, k: K, page: 1, size: K };
  const text = (i: number, method: SearchParams['method']): SearchParams => ({
    ...base,
    scope: 'all',
    method,
    description: texts[i],
  });
  const inVideo = (i: number, method: SearchParams['method']): SearchParams => ({
    ...base,
    scope: 'current',
    method,
    description: texts[i],
    videoId: itemIds[i],
  });
  const similar = (i: number, method: SearchParams['method'], scene: boolean): SearchParams => ({
    ...base,
    scope: 'all',
    method,
    videoId: itemIds[i],
    sceneIndex: scene ? sceneOf(i) : undefined,
  });
  const sparse = (kind: 0 | 1, i: number): ListedQuery => ({
    teamId,
    kind,
    terms: termFrequencies(texts[i]!),
    limit: K,
  });

  await run('videos dense', (i) => denseVideos(db, { teamId, vector: vectors[i]!, limit: K }));
  await run('videos keyword', (i) => sparseSearch(db, sparse(VIDEO_DOC, i)));
  await run('videos hybrid', (i) => searchVideos(ctx, text(i, 'hybrid')));
  await run('scenes dense', (i) => denseScenes(db, { teamId, vector: vectors[i]!, limit: K }));
  await run('scenes keyword', (i) => sparseSearch(db, sparse(SCENE_DOC, i)));
  await run('scenes hybrid', (i) => searchScenes(ctx, text(i, 'hybrid')));
  for (const method of ['dense', 'sparse', 'hybrid'] as const) {
    const m = method === 'sparse' ? 'keyword' : method;
    await run(`scenes in one video ${m}`, (i) => searchScenes(ctx, inVideo(i, method)));
  }
  for (const method of ['dense', 'sparse', 'hybrid'] as const) {
    const m = method === 'sparse' ? 'keyword' : method;
    await run(`similar videos ${m}`, (i) => searchVideos(ctx, similar(i, method, false)));
    await run(`similar scenes ${m}`, (i) => searchScenes(ctx, similar(i, method, true)));
  }

  // The exact BM25 reference on the same queries: its time, and the keyword search's recall (a
  // "similar" query asked as the product asks it: the item, whose terms the search chooses).
  const itemQuery = (
    kind: 0 | 1,
    i: number,
    sceneIdx: number,
  ): Promise<{ query: ListedQuery; asked: SparseQuery }> =>
    documentTerms(db, teamId, itemIds[i]!, sceneIdx).then((terms) => {
      const query = {
        teamId,
        kind,
        terms,
        limit: K,
        excludeVideoId: itemIds[i],
        excludeSceneIdx: sceneIdx >= 0 ? sceneIdx : undefined,
      };
      return { query, asked: { ...query, terms: { videoId: itemIds[i]!, sceneIdx } } };
    });
  const keywordQueries: [
    string,
    (i: number) => Promise<{ query: ListedQuery; asked?: SparseQuery }>,
  ][] = [
    ['videos', (i) => Promise.resolve({ query: sparse(VIDEO_DOC, i) })],
    ['scenes', (i) => Promise.resolve({ query: sparse(SCENE_DOC, i) })],
    ['similar videos', (i) => itemQuery(VIDEO_DOC, i, -1)],
    ['similar scenes', (i) => itemQuery(SCENE_DOC, i, sceneOf(i))],
  ];
  // Each query from a process that holds no list yet: every list read from the database.
  await run('scenes keyword, no list in memory', (i) =>
    sparseSearch(otherProcess(db), sparse(SCENE_DOC, i)),
  );
  rows[rows.length - 1]!.reference = true;
  let hits = 0;
  let of = 0;
  for (const [name, make] of keywordQueries) {
    const ms: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const { query, asked = query } = await make(i);
      const [t, exact] = await time(() => exactBm25(db, query));
      ms.push(t);
      const r = recallAtK(exact, await sparseSearch(db, asked));
      hits += r.hits;
      of += r.of;
    }
    rows.push({ name: `${name} keyword, exact reference`, ms, reference: true });
  }
  const keywordRecall = of ? hits / of : 1;

  // Dense: HNSW against an exact scan (a materialised CTE keeps the index out). A result counts
  // when it is no farther than the exact k-th, so that equal distances either side of the k-th
  // (which the generator made common before it had a third noise pool) do not count as misses.
  let denseHits = 0;
  // An exact scan of 1M scenes takes seconds: 10 of them unless EXACT_QUERIES says more.
  const exactQueries = Math.min(
    QUERIES,
    Number(process.env.EXACT_QUERIES ?? (scenes > 200_000 ? 10 : QUERIES)),
  );
  const exactMs: number[] = [];
  for (let i = 0; i < exactQueries; i++) {
    const [t, exact] = await time(() =>
      db.query<{ dist: number }>(
        `WITH all_scenes AS MATERIALIZED (
           SELECT s.video_id, s.idx, s.embedding <=> $2::vector AS dist
           FROM scenes s JOIN videos v ON v.id = s.video_id
           WHERE v.team_id = $1 AND v.status = 'completed' AND s.embedding IS NOT NULL)
         SELECT dist FROM all_scenes ORDER BY dist LIMIT ${K}`,
        [teamId, toVectorLiteral(vectors[i]!)],
      ),
    );
    exactMs.push(t);
    const approx = await denseScenes(db, { teamId, vector: vectors[i]!, limit: K });
    const kth = Number(exact[exact.length - 1]?.dist ?? Infinity);
    // score = 1 - distance / 2 (dense.ts)
    denseHits += approx.filter((a) => 2 * (1 - a.score) <= kth + 1e-9).length;
  }
  rows.push({ name: 'scenes dense, exact scan', ms: exactMs, reference: true });
  const denseRecall = denseHits / (exactQueries * K);

  const indexMs = await indexOneVideo(db, videos);
  // The lists in memory catch up with the video indexed and removed: its postings only.
  const before = lists.loadedPostings;
  const [catchUpMs] = await time(() => sparseSearch(db, sparse(SCENE_DOC, 1)));
  const caughtUp = lists.loadedPostings - before;
  const bytes = await keywordIndexBytes(db);
  await close();

  const bar = barMs(scenes);
  let ok = true;
  console.log(`\n${'search'.padEnd(40)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}`);
  for (const r of rows) {
    const p95 = percentile(r.ms, 95);
    const over = !r.reference && p95 > bar;
    if (over) ok = false;
    console.log(
      `${r.name.padEnd(40)}${percentile(r.ms, 50).toFixed(1).padStart(9)}${p95.toFixed(1).padStart(9)}${over ? `  over ${bar} ms` : ''}`,
    );
  }
  console.log(
    `\nkeyword recall@10 against exact BM25: ${keywordRecall.toFixed(4)} (${of} results)`,
  );
  console.log(
    `dense (HNSW) recall@10 against an exact scan: ${denseRecall.toFixed(3)} (${exactQueries} queries; bar ${DENSE_RECALL_BAR})`,
  );
  console.log(`index one video of 200 scenes: ${indexMs.toFixed(0)} ms`);
  console.log(
    `next keyword search, catching up with it: ${catchUpMs.toFixed(1)} ms (${caughtUp} postings read)`,
  );
  console.log(
    `keyword lists in memory: ${(lists.bytes() / 2 ** 20).toFixed(0)} MB; process RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
  );
  console.log(
    `keyword index on disk: ${(((bytes / scenes) * 1000) / 1024).toFixed(0)} KB per 1,000 scenes (${(bytes / 2 ** 20).toFixed(0)} MB)`,
  );
  console.log(`load average after: ${load()}`);
  return ok && keywordRecall >= KEYWORD_RECALL_BAR && denseRecall >= DENSE_RECALL_BAR;
}

export async function main(): Promise<{ ok: boolean }> {
  if (searchTerms('w12 w345').join(' ') !== 'w12 w345')
    throw new Error('tokenizer changed synthetic words');
  let ok = true;
  for (const videos of SIZES) ok = (await measure(videos)) && ok;
  return { ok };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (r) => process.exit(r.ok ? 0 : 1),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
