// Search quality: nDCG@10 of dense, sparse and hybrid video search over a labelled set of real
// generated videos (bench/search-quality-data.ts): each is a clip made by ffmpeg with its text
// drawn on screen and its captions in a subtitle track, uploaded with the uploader's text and
// people, analysed by the product's pipeline (scene detection, OCR, captions, local provider,
// index) on an in-memory PGlite, then searched with searchVideos. Prints the figures by source
// of evidence, language and kind, and a sweep of the fusion constants (how fusion.ts was tuned).
// Fails (ok: false) when hybrid scores below the better single method.
// Japanese on-screen text needs a Japanese font (Debian: apt-get install fonts-noto-cjk);
// without one it is left out, and the bench says so.
//   npm run bench -- search-quality     (clips are cached in the temp folder)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createProvider } from '../server/src/analysis/create.ts';
import { loadConfig } from '../server/src/config.ts';
import type { AppContext } from '../server/src/context.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { openPglite } from '../server/src/db/pglite.ts';
import { analyseVideo } from '../server/src/pipeline/analyse-video.ts';
import { denseVideos } from '../server/src/search/dense.ts';
import { VIDEO_DOC } from '../server/src/search/documents.ts';
import { reciprocalRankFusion, RRF_K, RRF_WEIGHTS } from '../server/src/search/fusion.ts';
import { FUSION_DEPTH, searchVideos } from '../server/src/search/search.ts';
import { sparseSearch } from '../server/src/search/sparse.ts';
import { normalizeText, termFrequencies } from '../server/src/search/tokenize.ts';
import { createContext } from '../server/src/context.ts';
import { findFonts, makeEvalClip } from './_search-quality-media.ts';
import { buildEvalSet, type EvalQuery, type EvalVideo } from './search-quality-data.ts';

const METHODS = ['dense', 'sparse', 'hybrid'] as const;
type Method = (typeof METHODS)[number];
type Scores = Record<Method, number[]>;

export function ndcgAt10(ranked: string[], relevant: Map<string, number>): number {
  const gain = (g: number): number => 2 ** g - 1;
  let dcg = 0;
  ranked.slice(0, 10).forEach((key, i) => {
    dcg += gain(relevant.get(key) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** A person's picture as the upload form stores it (the local provider does not look at it). */
const PERSON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';

/** Uploads one clip with its uploader text and people, and runs the analysis pipeline on it. */
async function uploadAndAnalyse(
  ctx: AppContext,
  teamId: string,
  v: EvalVideo,
  file: string,
): Promise<string> {
  const [row] = await ctx.db.query<{ id: string }>(
    `INSERT INTO videos (team_id, filename, status, source_key, about_this_video, output_language)
     VALUES ($1, $2, 'in_progress', 'x', $3, $4) RETURNING id`,
    [teamId, v.filename, v.about, v.language],
  );
  const id = row!.id;
  const key = `input/${id}/source.mp4`;
  await ctx.storage.put(key, fs.createReadStream(file));
  await ctx.db.query('UPDATE videos SET source_key = $2 WHERE id = $1', [id, key]);
  for (const [i, name] of v.people.entries()) {
    const imageKey = `input/${id}/people/${i + 1}.svg`;
    await ctx.storage.put(imageKey, Buffer.from(PERSON_SVG));
    await ctx.db.query(
      'INSERT INTO video_people (video_id, position, name, image_key) VALUES ($1, $2, $3, $4)',
      [id, i + 1, name, imageKey],
    );
  }
  await analyseVideo(ctx, id, new AbortController().signal);
  const [done] = await ctx.db.query<{ status: string; failure_reason: string | null }>(
    'SELECT status, failure_reason FROM videos WHERE id = $1',
    [id],
  );
  if (done?.status !== 'completed') {
    throw new Error(`${v.key} is ${done?.status} (${done?.failure_reason})`);
  }
  return id;
}

/** How many of the drawn texts the pipeline read: each should appear in the video's summary. */
async function screenTextRead(
  ctx: AppContext,
  ids: Map<string, string>,
  videos: EvalVideo[],
): Promise<string> {
  const squash = (s: string): string => normalizeText(s).replace(/[\s\-_.]/g, '');
  const found = { en: 0, ja: 0 };
  const drawn = { en: 0, ja: 0 };
  for (const v of videos) {
    const [row] = await ctx.db.query<{ summary: string }>(
      'SELECT summary FROM videos WHERE id = $1',
      [ids.get(v.key)],
    );
    const summary = squash(row?.summary ?? '');
    for (const s of v.scenes) {
      if (!s.screen) continue;
      drawn[s.screen.lang]++;
      if (summary.includes(squash(s.screen.text))) found[s.screen.lang]++;
    }
  }
  return `read by OCR: ${found.en} of ${drawn.en} English texts, ${found.ja} of ${drawn.ja} Japanese`;
}

function table(title: string, rows: [string, Scores][]): void {
  const fmt = (xs: number[]): string => mean(xs).toFixed(3).padStart(8);
  console.log(
    `\n${title.padEnd(34)}${'n'.padStart(4)}${METHODS.map((m) => m.padStart(8)).join('')}`,
  );
  for (const [label, s] of rows) {
    console.log(
      `${label.padEnd(34)}${String(s.dense.length).padStart(4)}${METHODS.map((m) => fmt(s[m])).join('')}`,
    );
  }
}

function groupBy(
  scored: { q: EvalQuery; s: Record<Method, number> }[],
  by: (q: EvalQuery) => string,
): [string, Scores][] {
  const groups = new Map<string, Scores>();
  for (const { q, s } of scored) {
    const g = groups.get(by(q)) ?? { dense: [], sparse: [], hybrid: [] };
    for (const m of METHODS) g[m].push(s[m]);
    groups.set(by(q), g);
  }
  return [...groups.entries()];
}

export async function main(): Promise<{
  ok: boolean;
  ndcg: Record<Method, number>;
  queries: number;
}> {
  const started = Date.now();
  const fonts = findFonts();
  if (!fonts.japanese) {
    console.log(
      'NOTE: no Japanese font (`fc-list :lang=ja` lists none): Japanese on-screen text is left ' +
        'out of the set. Install one for the full set (Debian: apt-get install fonts-noto-cjk).',
    );
  }
  const { videos, queries } = buildEvalSet({ japaneseOnScreen: Boolean(fonts.japanese) });

  const clips: string[] = [];
  for (const v of videos) clips.push((await makeEvalClip(v, fonts)).file);
  const madeMs = Date.now() - started;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-search-quality-'));
  const db = await openPglite(undefined);
  try {
    await migrate(db);
    const config = loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AI_PROVIDER: 'local',
    });
    const ctx = await createContext(config, db);
    const [team] = await db.query<{ id: string }>(
      "INSERT INTO teams (name) VALUES ('eval') RETURNING id",
    );
    const teamId = team!.id;
    const ids = new Map<string, string>();
    const analyseStart = Date.now();
    for (const [i, v] of videos.entries()) {
      ids.set(v.key, await uploadAndAnalyse(ctx, teamId, v, clips[i]!));
    }
    const idToKey = new Map([...ids].map(([k, id]) => [id, k]));
    const langs = (l: string): number => videos.filter((v) => v.language === l).length;
    console.log(
      `search quality: ${videos.length} videos (${langs('en')} en, ${langs('ja')} ja; ` +
        `${(madeMs / 1000).toFixed(1)} s to make or find the clips, ` +
        `${((Date.now() - analyseStart) / 1000).toFixed(1)} s to analyse), ${queries.length} queries; ` +
        `load average ${os.loadavg()[0]!.toFixed(2)} on ${os.availableParallelism()} cores`,
    );
    console.log(await screenTextRead(ctx, ids, videos));

    const scored: { q: EvalQuery; s: Record<Method, number> }[] = [];
    for (const q of queries) {
      const s = { dense: 0, sparse: 0, hybrid: 0 };
      for (const method of METHODS) {
        const res = await searchVideos(ctx, {
          teamId,
          description: q.text,
          scope: 'all',
          method,
          k: 10,
          page: 1,
          size: 10,
        });
        s[method] = ndcgAt10(
          res.items.map((i) => idToKey.get(i.videoId)!),
          q.relevant,
        );
      }
      scored.push({ q, s });
    }
    const all = groupBy(scored, () => 'ALL')[0]![1];
    table(
      'nDCG@10 by source of evidence',
      groupBy(scored, (q) => q.channel),
    );
    table(
      'by query language',
      groupBy(scored, (q) => q.lang),
    );
    table(
      'by kind',
      groupBy(scored, (q) => `${q.channel} ${q.kind} (${q.lang})`),
    );
    table('ALL', [['ALL', all]]);
    const ndcg = { dense: mean(all.dense), sparse: mean(all.sparse), hybrid: mean(all.hybrid) };
    const best = Math.max(ndcg.dense, ndcg.sparse);
    console.log(
      `hybrid - best single = ${(ndcg.hybrid - best).toFixed(3)} (RRF k=${RRF_K}, weights dense ${RRF_WEIGHTS.dense}, sparse ${RRF_WEIGHTS.sparse})`,
    );

    await sweep(ctx, teamId, queries, idToKey);
    const ok = ndcg.hybrid + 1e-9 >= best;
    if (!ok) console.log('FAIL: hybrid scored below the better single method');
    return { ok, ndcg, queries: queries.length };
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** nDCG@10 of the fusion for several constants, from the same two candidate lists. */
async function sweep(
  ctx: AppContext,
  teamId: string,
  queries: EvalQuery[],
  idToKey: Map<string, string>,
): Promise<void> {
  const provider = createProvider(ctx.config);
  const lists: { dense: { videoId: string }[]; sparse: { videoId: string }[]; q: EvalQuery }[] = [];
  for (const q of queries) {
    const [vector] = await provider.embed([q.text]);
    const dense = await denseVideos(ctx.db, { teamId, vector: vector!, limit: 100 });
    const sparse = await sparseSearch(ctx.db, {
      teamId,
      kind: VIDEO_DOC,
      terms: termFrequencies(q.text),
      limit: 100,
    });
    lists.push({ dense, sparse, q });
  }
  const weights = [0.5, 1, 1.5, 2, 3];
  console.log(
    `\nfusion sweep, nDCG@10 (rows: RRF k; columns: sparse weight, dense weight 1; * in use)`,
  );
  console.log(`${'k'.padStart(6)}${weights.map((w) => w.toFixed(1).padStart(8)).join('')}`);
  for (const k of [1, 5, 10, 20, 60]) {
    const cells = weights.map((ws) => {
      const scores = lists.map(({ dense, sparse, q }) =>
        ndcgAt10(
          reciprocalRankFusion(dense, sparse, { dense: 1, sparse: ws }, k).map((h) =>
            idToKey.get(h.videoId)!,
          ),
          q.relevant,
        ),
      );
      const inUse = k === RRF_K && ws === RRF_WEIGHTS.sparse / RRF_WEIGHTS.dense;
      return `${mean(scores).toFixed(3)}${inUse ? '*' : ' '}`.padStart(8);
    });
    console.log(`${String(k).padStart(6)}${cells.join('')}`);
  }
  // How deep each list is read before fusion (FUSION_DEPTH): the same lists, cut shorter; and
  // how many queries keep the top 10 of the deepest fusion, in the same order.
  const fuse = (depth: number): string[][] =>
    lists.map(({ dense, sparse }) =>
      reciprocalRankFusion(dense.slice(0, depth), sparse.slice(0, depth))
        .slice(0, 10)
        .map((h) => idToKey.get(h.videoId)!),
    );
  const deepest = fuse(100);
  console.log(`\nfusion depth sweep (constants in use; * in use)`);
  console.log(`${'depth'.padStart(6)}${'nDCG@10'.padStart(9)}  same top 10 as depth 100`);
  for (const depth of [10, 20, 30, 50, 100]) {
    const tops = fuse(depth);
    const ndcg = mean(tops.map((top, i) => ndcgAt10(top, lists[i]!.q.relevant)));
    const same = tops.filter((top, i) => top.join() === deepest[i]!.join()).length;
    const inUse = depth === FUSION_DEPTH ? '*' : ' ';
    console.log(
      `${String(depth).padStart(6)}${ndcg.toFixed(4).padStart(9)}${inUse} ${same}/${tops.length}`,
    );
  }
}
