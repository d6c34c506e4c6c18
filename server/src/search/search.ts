// Entry points for find-similar-videos / find-similar-scenes. A query is either free text
// (description) or an indexed item ("similar to this video / scene"); each method ranks the
// team's completed videos or scenes; the answer is one page of the top-k.
import { createProvider } from '../analysis/create.ts';
import type { AppContext } from '../context.ts';
import { SCENE_DOC, VIDEO_DOC, VIDEO_SCENE_IDX } from './documents.ts';
import { denseScenes, denseVideos, type DenseItem, type DenseQuery } from './dense.ts';
import { reciprocalRankFusion } from './fusion.ts';
import { sparseSearch, type ItemTerms } from './sparse.ts';
import { termFrequencies } from './tokenize.ts';
import type { SearchParams, SearchResult } from './types.ts';

export type {
  HitMatch,
  SearchParams,
  SearchResult,
  SearchHit,
  SearchMethod,
  SearchScope,
} from './types.ts';

type SearchCtx = Pick<AppContext, 'db' | 'config'>;
type Kind = typeof VIDEO_DOC | typeof SCENE_DOC;
interface Ranked {
  videoId: string;
  sceneIdx?: number;
  score: number;
  /** Hybrid: the part of the fused score the keyword list gave. */
  keywordShare?: number;
}

/**
 * How deep each single list is read before fusion (at least k): fusion may lift items from below
 * k. 30 keeps nDCG@10 of the quality set and 124 of its 125 top 10s as at 100
 * (bench/search-quality.ts), for a third of the scoring
 * (docs/decisions/dense-hybrid-search.md).
 */
export const FUSION_DEPTH = 30;
const MAX_K = 999;

interface Query {
  /** Dense: the text's embedding (undefined: none), or the item whose stored vector it is. */
  vector: Promise<number[] | undefined> | DenseItem;
  /** Keyword: the text's terms, or the item whose terms are the query (sparse.ts). */
  terms: Map<string, number> | ItemTerms;
  excludeVideoId?: string | undefined;
  excludeSceneIdx?: number | undefined;
}

const none = Promise.resolve(undefined);

/**
 * The query, its parts still on their way: the dense and keyword halves each wait for their own
 * part only. A "similar" query is the item itself: its keyword half chooses and weighs the item's
 * terms in its one statement, its dense half reads the item's vector in its own (on PostgreSQL,
 * each round trip saved counts: similar scenes hybrid at 1M scenes was the row over 20 ms p95).
 * An item of another team, or gone, has no vector and no terms there: the answer is empty.
 */
function buildQuery(ctx: SearchCtx, p: SearchParams, kind: Kind): Query | undefined {
  const text = p.description?.trim();
  const needDense = p.method !== 'sparse';
  const needSparse = p.method !== 'dense';
  if (text) {
    const vector = needDense
      ? createProvider(ctx.config)
          .embed([text])
          .then((v) => v[0])
      : none;
    return { vector, terms: needSparse ? termFrequencies(text) : new Map() };
  }
  if (!p.videoId) return undefined;
  // Leave out the query item itself: the video for video search, the scene for scene search.
  const self =
    kind === VIDEO_DOC
      ? { excludeVideoId: p.videoId }
      : p.sceneIndex === undefined
        ? {}
        : { excludeVideoId: p.videoId, excludeSceneIdx: p.sceneIndex };
  return {
    vector: needDense ? { videoId: p.videoId, sceneIdx: p.sceneIndex } : none,
    terms: needSparse
      ? { videoId: p.videoId, sceneIdx: p.sceneIndex ?? VIDEO_SCENE_IDX }
      : new Map<string, number>(),
    ...self,
  };
}

async function rank(ctx: SearchCtx, p: SearchParams, kind: Kind): Promise<SearchResult> {
  const k = Math.max(1, Math.min(MAX_K, Math.floor(p.k)));
  const query = buildQuery(ctx, p, kind);
  if (!query) return { items: [], total: 0 };
  const onlyVideoId = kind === SCENE_DOC && p.scope === 'current' ? p.videoId : undefined;
  const depth = p.method === 'hybrid' ? Math.max(k, FUSION_DEPTH) : k;
  const common = {
    teamId: p.teamId,
    limit: depth,
    onlyVideoId,
    excludeVideoId: query.excludeVideoId,
    excludeSceneIdx: query.excludeSceneIdx,
  };

  const runDense = async (): Promise<Ranked[]> => {
    const vector = 'videoId' in query.vector ? query.vector : await query.vector;
    if (!vector || (Array.isArray(vector) && vector.every((x) => x === 0))) return [];
    const dq: DenseQuery = { ...common, vector };
    return kind === VIDEO_DOC ? denseVideos(ctx.db, dq) : denseScenes(ctx.db, dq);
  };
  const runSparse = (): Promise<Ranked[]> =>
    sparseSearch(ctx.db, { ...common, kind, terms: query.terms });

  let ranked: Ranked[];
  if (p.method === 'dense') ranked = await runDense();
  else if (p.method === 'sparse') ranked = await runSparse();
  else {
    // Keyword first: its one statement goes ahead of the graph search, and its scoring, in this
    // thread, then runs while the database's thread walks the graph.
    const [sparse, dense] = await Promise.all([runSparse(), runDense()]);
    ranked = reciprocalRankFusion(dense, sparse).map(
      ({ videoId, sceneIdx, score, keywordShare }) => ({
        videoId,
        ...(sceneIdx === undefined ? {} : { sceneIdx }),
        score,
        keywordShare,
      }),
    );
  }
  const top = ranked.slice(0, k);
  const size = Math.max(1, Math.floor(p.size));
  const page = Math.max(1, Math.floor(p.page));
  const items = top.slice((page - 1) * size, page * size).map((h) => ({
    videoId: h.videoId,
    ...(h.sceneIdx === undefined ? {} : { sceneIndex: h.sceneIdx }),
    score: h.score,
    ...(h.keywordShare === undefined ? {} : { keywordShare: h.keywordShare }),
  }));
  return { items, total: top.length };
}

export function searchVideos(ctx: SearchCtx, params: SearchParams): Promise<SearchResult> {
  return rank(ctx, params, VIDEO_DOC);
}

export function searchScenes(ctx: SearchCtx, params: SearchParams): Promise<SearchResult> {
  return rank(ctx, params, SCENE_DOC);
}
