// Builds every index row of one video from the database: keyword postings and statistics for
// the video and each scene, and their dense vectors. Idempotent: one transaction deletes the
// old rows and inserts the new ones. Run as the pipeline's last step, so only analysed videos
// are found (search also filters on status = completed).
import { createProvider } from '../analysis/create.ts';
import type { AnalysisProvider } from '../analysis/provider.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { toVectorLiteral } from '../db/vector.ts';
import {
  embeddingInput,
  loadVideoDocs,
  SCENE_DOC,
  type VideoDocs,
  VIDEO_DOC,
  VIDEO_SCENE_IDX,
} from './documents.ts';
import { refreshImpacts } from './impacts.ts';
import { termFrequencies } from './tokenize.ts';

type IndexCtx = Pick<AppContext, 'db' | 'config'>;

interface DocRows {
  kind: number;
  sceneIdx: number;
  tf: Map<string, number>;
}

/**
 * Until the transaction ends, no other transaction writes this team's index rows. Taken first by
 * every indexing transaction (a people correction takes it after the team's people lock, never
 * the other way): two rebuilds of one video on a pool of connections would otherwise each delete
 * nothing and insert twice, and a correction across several videos beside a rebuild took their
 * rows and the team's statistics in opposite orders, a deadlock. Indexing transactions are short.
 */
async function lockTeamIndex(q: Queryable, teamId: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext('search:' || $1))", [teamId]);
}

/** Documents first: every indexing transaction locks the statistics row before the terms'. */
async function deleteRows(q: Queryable, videoId: string): Promise<void> {
  await q.query('DELETE FROM search_documents WHERE video_id = $1', [videoId]);
  await q.query('DELETE FROM search_postings WHERE video_id = $1', [videoId]);
}

async function refreshBothKinds(q: Queryable, teamId: string): Promise<void> {
  await refreshImpacts(q, teamId, VIDEO_DOC);
  await refreshImpacts(q, teamId, SCENE_DOC);
}

async function insertDocs(
  q: Queryable,
  videoId: string,
  teamId: string,
  docs: DocRows[],
): Promise<void> {
  const docIdx: number[] = [];
  const docKind: number[] = [];
  const docLen: number[] = [];
  const terms: string[] = [];
  const tfs: number[] = [];
  const kinds: number[] = [];
  const idxs: number[] = [];
  const lens: number[] = [];
  for (const d of docs) {
    let len = 0;
    for (const n of d.tf.values()) len += n;
    if (len === 0) continue;
    docIdx.push(d.sceneIdx);
    docKind.push(d.kind);
    docLen.push(len);
    for (const [term, n] of d.tf) {
      terms.push(term);
      tfs.push(n);
      kinds.push(d.kind);
      idxs.push(d.sceneIdx);
      lens.push(len);
    }
  }
  if (docIdx.length === 0) return;
  // Arrays as parameters: one statement per table whatever the number of terms.
  await q.query(
    `INSERT INTO search_documents (video_id, scene_idx, team_id, kind, doc_len)
     SELECT $1, i, $2, k, l FROM unnest($3::int[], $4::smallint[], $5::int[]) AS t(i, k, l)`,
    [videoId, teamId, docIdx, docKind, docLen],
  );
  // The new documents are counted: bring the impacts' average length up to date first.
  await refreshBothKinds(q, teamId);
  await q.query(
    `INSERT INTO search_postings (team_id, kind, term, video_id, scene_idx, tf, doc_len, impact)
     SELECT $1, t.k, t.term, $2, t.i, t.tf, t.l, search_impact(t.tf, t.l, s.impact_avgdl)
     FROM unnest($3::smallint[], $4::text[], $5::int[], $6::int[], $7::int[]) AS t(k, term, i, tf, l)
     JOIN search_corpus_stats s ON s.team_id = $1 AND s.kind = t.k`,
    [teamId, videoId, kinds, terms, idxs, tfs, lens],
  );
}

function isZero(v: readonly number[]): boolean {
  return v.every((x) => x === 0);
}

function docRows(docs: VideoDocs, scenes?: ReadonlySet<number>): DocRows[] {
  return [
    { kind: VIDEO_DOC, sceneIdx: VIDEO_SCENE_IDX, tf: termFrequencies(docs.videoText) },
    ...docs.scenes
      .filter((s) => !scenes || scenes.has(s.idx))
      .map((s) => ({ kind: SCENE_DOC, sceneIdx: s.idx, tf: termFrequencies(s.text) })),
  ];
}

/**
 * Rebuilds the keyword rows of a video's own document and of these scenes, in the caller's
 * transaction, vectors untouched: names of people changed (server/src/people/reindex.ts), and
 * keyword search must find the new name as soon as the change is answered.
 */
export async function indexVideoKeywords(
  q: Queryable,
  videoId: string,
  scenes: ReadonlySet<number>,
): Promise<void> {
  const docs = await loadVideoDocs(q, videoId);
  if (!docs) return;
  await lockTeamIndex(q, docs.teamId);
  const idxs = [VIDEO_SCENE_IDX, ...scenes];
  await q.query(
    'DELETE FROM search_documents WHERE video_id = $1 AND scene_idx = ANY ($2::int[])',
    [videoId, idxs],
  );
  await q.query('DELETE FROM search_postings WHERE video_id = $1 AND scene_idx = ANY ($2::int[])', [
    videoId,
    idxs,
  ]);
  await insertDocs(q, videoId, docs.teamId, docRows(docs, scenes));
}

/** (Re)builds the index rows of a video. Does nothing when the video is gone. */
export async function indexVideo(
  ctx: IndexCtx,
  videoId: string,
  provider: AnalysisProvider = createProvider(ctx.config),
): Promise<void> {
  const docs = await loadVideoDocs(ctx.db, videoId);
  if (!docs) return;
  // Embeddings first, outside the transaction: a remote provider may take seconds.
  const texts = [docs.videoText, ...docs.scenes.map((s) => s.text)].map(embeddingInput);
  const vectors = await provider.embed(texts);
  const vec = (i: number): string | null => {
    const v = vectors[i];
    return v && !isZero(v) && texts[i]!.trim() ? toVectorLiteral(v) : null;
  };

  const rows = docRows(docs);
  await ctx.db.tx(async (q) => {
    await lockTeamIndex(q, docs.teamId);
    await deleteRows(q, videoId);
    await insertDocs(q, videoId, docs.teamId, rows);
    await q.query('UPDATE videos SET embedding = $2 WHERE id = $1', [videoId, vec(0)]);
    if (docs.scenes.length > 0) {
      await q.query(
        `UPDATE scenes s SET embedding = t.e::vector
         FROM unnest($2::int[], $3::text[]) AS t(i, e)
         WHERE s.video_id = $1 AND s.idx = t.i`,
        [videoId, docs.scenes.map((s) => s.idx), docs.scenes.map((_, i) => vec(i + 1))],
      );
    }
  });
}

/** Removes a video's keyword rows and vectors (call before or instead of deleting the video). */
export async function removeVideoFromIndex(
  ctx: Pick<AppContext, 'db'>,
  videoId: string,
): Promise<void> {
  await ctx.db.tx(async (q) => {
    const [video] = await q.query<{ team_id: string }>('SELECT team_id FROM videos WHERE id = $1', [
      videoId,
    ]);
    if (video) await lockTeamIndex(q, video.team_id);
    await deleteRows(q, videoId);
    if (video) await refreshBothKinds(q, video.team_id);
    await q.query('UPDATE videos SET embedding = NULL WHERE id = $1', [videoId]);
    await q.query('UPDATE scenes SET embedding = NULL WHERE video_id = $1', [videoId]);
  });
}
