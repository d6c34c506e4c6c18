// Search quality: nDCG@10 of dense, sparse and hybrid video search over a labelled set of
// generated videos (English and Japanese), indexed with the local provider on a real PGlite.
// Also prints a small sweep of the fusion constants, which is how fusion.ts was tuned.
//   node --import tsx bench/search-quality.ts
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../server/src/config.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { openPglite } from '../server/src/db/pglite.ts';
import { VIDEO_DOC } from '../server/src/search/documents.ts';
import { denseVideos } from '../server/src/search/dense.ts';
import { reciprocalRankFusion, RRF_K, RRF_WEIGHTS } from '../server/src/search/fusion.ts';
import { indexVideo } from '../server/src/search/index-video.ts';
import { searchVideos } from '../server/src/search/search.ts';
import { sparseSearch } from '../server/src/search/sparse.ts';
import { termFrequencies } from '../server/src/search/tokenize.ts';
import { createProvider } from '../server/src/analysis/create.ts';
import type { VideoEvidence } from '../server/src/analysis/provider.ts';
import { buildEvalSet, type EvalQuery } from './search-quality-data.ts';

const METHODS = ['dense', 'sparse', 'hybrid'] as const;

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

export async function main(): Promise<void> {
  const started = Date.now();
  const db = await openPglite(undefined);
  await migrate(db);
  const ctx = { db, config: loadConfig({ DATA_DIR: '/tmp/unused' }) };
  const [team] = await db.query<{ id: string }>(
    "INSERT INTO teams (name) VALUES ('eval') RETURNING id",
  );
  const teamId = team!.id;
  const { videos, queries } = buildEvalSet();
  const idToKey = new Map<string, string>();
  const provider = createProvider(ctx.config);
  for (const v of videos) {
    // The real flow: the local provider writes title, summary, tags and scene descriptions
    // from the measured evidence, then the index is built from the stored rows.
    const evidence: VideoEvidence = {
      filename: `${v.key}.mp4`,
      outputLanguage: v.language,
      aboutThisVideo: v.about,
      people: v.people.map((name) => ({ name, imagePath: '' })),
      durationSec: v.scenes.length * 5,
      width: 1280,
      height: 720,
      creationDate: undefined,
      captions: v.scenes.map((s, i) => ({
        startMs: i * 5000,
        endMs: i * 5000 + 5000,
        text: s.captions,
      })),
      scenes: v.scenes.map((s, i) => ({
        index: i,
        startMs: i * 5000,
        endMs: i * 5000 + 5000,
        framePaths: [],
        captions: s.captions,
        onScreenText: s.onScreen,
        visual: { brightness: 0.5, motion: 0.1, dominantColors: ['blue'] },
      })),
    };
    const u = await provider.understand(evidence);
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO videos (team_id, filename, title, summary, tags, about_this_video, status, output_language)
       VALUES ($1, $2, $3, $4, $5, $6, 'completed', $7) RETURNING id`,
      [
        teamId,
        evidence.filename,
        u.title,
        u.summary,
        JSON.stringify(u.tags.map((name) => ({ name }))),
        v.about,
        v.language,
      ],
    );
    const id = row!.id;
    idToKey.set(id, v.key);
    await db.query(
      'INSERT INTO video_people (video_id, position, name, image_key) VALUES ($1, 0, $2, $3)',
      [id, v.people[0], 'x'],
    );
    for (const [i, s] of v.scenes.entries()) {
      await db.query(
        'INSERT INTO scenes (video_id, idx, start_ms, end_ms, description, captions) VALUES ($1, $2, $3, $4, $5, $6)',
        [id, i, i * 5000, i * 5000 + 5000, u.sceneDescriptions[i], s.captions],
      );
    }
    await indexVideo(ctx, id);
  }
  console.log(
    `search quality: ${videos.length} videos, ${queries.length} queries (${Date.now() - started} ms to index)`,
  );

  const perKind = new Map<string, Record<string, number[]>>();
  const all: Record<string, number[]> = { dense: [], sparse: [], hybrid: [] };
  for (const q of queries) {
    const row = perKind.get(q.kind) ?? { dense: [], sparse: [], hybrid: [] };
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
      const score = ndcgAt10(
        res.items.map((i) => idToKey.get(i.videoId)!),
        q.relevant,
      );
      row[method]!.push(score);
      all[method]!.push(score);
    }
    perKind.set(q.kind, row);
  }
  const fmt = (xs: number[]): string => mean(xs).toFixed(3).padStart(7);
  console.log(
    `\n${'query kind'.padEnd(20)}${'n'.padStart(4)}  ${METHODS.map((m) => m.padStart(7)).join('')}`,
  );
  for (const [kind, row] of perKind) {
    console.log(
      `${kind.padEnd(20)}${String(row.dense!.length).padStart(4)}  ${METHODS.map((m) => fmt(row[m]!)).join('')}`,
    );
  }
  console.log(
    `${'ALL nDCG@10'.padEnd(20)}${String(queries.length).padStart(4)}  ${METHODS.map((m) => fmt(all[m]!)).join('')}`,
  );
  const best = Math.max(mean(all.dense!), mean(all.sparse!));
  console.log(
    `hybrid - best single = ${(mean(all.hybrid!) - best).toFixed(3)} (RRF k=${RRF_K}, weights dense ${RRF_WEIGHTS.dense}, sparse ${RRF_WEIGHTS.sparse})`,
  );

  await sweep(ctx.db, teamId, queries, idToKey, ctx.config);
  await db.close();
  if (mean(all.hybrid!) + 1e-9 < best) {
    throw new Error('hybrid scored below the better single method');
  }
}

/** nDCG@10 of the fusion for several constants, from the same two candidate lists. */
async function sweep(
  db: Awaited<ReturnType<typeof openPglite>>,
  teamId: string,
  queries: EvalQuery[],
  idToKey: Map<string, string>,
  config: ReturnType<typeof loadConfig>,
): Promise<void> {
  const provider = createProvider(config);
  const lists: { dense: { videoId: string }[]; sparse: { videoId: string }[]; q: EvalQuery }[] = [];
  for (const q of queries) {
    const [vector] = await provider.embed([q.text]);
    const dense = await denseVideos(db, { teamId, vector: vector!, limit: 100 });
    const sparse = await sparseSearch(db, {
      teamId,
      kind: VIDEO_DOC,
      terms: termFrequencies(q.text),
      limit: 100,
    });
    lists.push({ dense, sparse, q });
  }
  console.log('\nfusion sweep (nDCG@10):  k \\ sparse weight   0.5    1.0    1.5    2.0    3.0');
  for (const k of [1, 5, 10, 20, 60]) {
    const cells = [0.5, 1, 1.5, 2, 3].map((ws) => {
      const scores = lists.map(({ dense, sparse, q }) =>
        ndcgAt10(
          reciprocalRankFusion(dense, sparse, { dense: 1, sparse: ws }, k).map((h) =>
            idToKey.get(h.videoId)!,
          ),
          q.relevant,
        ),
      );
      return mean(scores).toFixed(3).padStart(7);
    });
    console.log(`${' '.repeat(24)}${String(k).padStart(3)}${' '.repeat(15)}${cells.join('')}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
