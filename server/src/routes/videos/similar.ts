// GET /api/videos/find-similar-videos and /find-similar-scenes: free-text or "more like this"
// search over the caller's team's completed videos, paged within the top k.
import type { FastifyInstance } from 'fastify';
import { isUuid, signAssetPath } from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import { HttpError, type DetailEntry } from '../../lib/http-error.ts';
import { VIDEO_PAGE_SIZE_MAX } from '../../limits.ts';
import { PAGE_SIZE, TOP_K_DEFAULT } from '../../../../src/config/limits.ts';
import { requireAuth } from '../../plugins/auth.ts';
import {
  findSceneHits,
  findTeamVideo,
  findVideoHits,
  type VideoHitRow,
} from '../../repositories/videos.ts';
import { hitMatcher, sceneHitText, videoHitText } from '../../search/match.ts';
import {
  searchScenes,
  searchVideos,
  type HitMatch,
  type SearchParams,
} from '../../search/search.ts';
import { similarQuery, type SimilarQuery } from './schemas.ts';
import { formatTimestamp, serializeVideo, type ApiVideo } from './serialize.ts';

/** Why a hit matched, on the wire (docs/api.md). */
export interface ApiMatch {
  terms: string[];
  keyword: number | null;
  meaning: number | null;
  people: string[];
  objects: string[];
  screen_text: string[];
}

const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e4) / 1e4);

function serializeMatch(m: HitMatch): ApiMatch {
  return {
    terms: m.terms,
    keyword: round(m.keyword),
    meaning: round(m.meaning),
    people: m.people,
    objects: m.objects,
    screen_text: m.screenText,
  };
}

function invalid(field: string, msg: string): HttpError {
  const entry: DetailEntry = { loc: ['query', field], msg, type: 'value_error' };
  return new HttpError(422, [entry]);
}

/** Checks the combination of parameters and turns them into search parameters. */
async function searchParams(
  ctx: AppContext,
  teamId: string,
  q: SimilarQuery,
): Promise<SearchParams> {
  const description = q.description?.trim() || undefined;
  const videoId = q.videoId?.trim() || undefined;
  if (!description && !videoId) {
    throw invalid('description', 'description or videoId is required');
  }
  if (q.sceneIndex !== undefined && !videoId) {
    throw invalid('sceneIndex', 'sceneIndex needs a videoId');
  }
  const scope = q.searchScope ?? 'all';
  if (scope === 'current' && !videoId) {
    throw invalid('searchScope', 'searchScope current needs a videoId');
  }
  if (videoId && (!isUuid(videoId) || !(await findTeamVideo(ctx.db, teamId, videoId)))) {
    throw new HttpError(404, 'Video not found');
  }
  return {
    teamId,
    description,
    videoId: videoId?.toLowerCase(),
    sceneIndex: q.sceneIndex,
    scope,
    method: q.searchMethod ?? 'hybrid',
    k: q.kValue ?? TOP_K_DEFAULT,
    page: q.page ?? 1,
    size: Math.min(q.size ?? PAGE_SIZE, VIDEO_PAGE_SIZE_MAX),
  };
}

async function completedVideos(
  ctx: AppContext,
  teamId: string,
  ids: string[],
): Promise<Map<string, VideoHitRow>> {
  const rows = await findVideoHits(ctx.db, teamId, [...new Set(ids)]);
  return new Map(rows.map((r) => [r.id, r]));
}

function page<T>(items: T[], total: number, params: SearchParams) {
  return {
    items,
    total,
    pages: Math.ceil(total / params.size),
    page: params.page,
    size: params.size,
  };
}

export async function registerSimilarRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Querystring: SimilarQuery }>(
    '/api/videos/find-similar-videos',
    { schema: { querystring: similarQuery } },
    async (request) => {
      const { user } = requireAuth(request);
      const params = await searchParams(ctx, user.team_id, request.query);
      const result = await searchVideos(ctx, params);
      const videos = await completedVideos(
        ctx,
        user.team_id,
        result.items.map((h) => h.videoId),
      );
      const explain = hitMatcher(params);
      const items: (ApiVideo & { similarity_score: number; match: ApiMatch })[] = [];
      for (const hit of result.items) {
        const row = videos.get(hit.videoId);
        if (!row) continue;
        items.push({
          ...serializeVideo(ctx, row),
          similarity_score: hit.score,
          match: serializeMatch(explain(videoHitText(row), hit.keywordShare)),
        });
      }
      return page(items, result.total, params);
    },
  );

  app.get<{ Querystring: SimilarQuery }>(
    '/api/videos/find-similar-scenes',
    { schema: { querystring: similarQuery } },
    async (request) => {
      const { user } = requireAuth(request);
      const params = await searchParams(ctx, user.team_id, request.query);
      const result = await searchScenes(ctx, params);
      const hits = result.items.filter((h) => h.sceneIndex !== undefined);
      const rows = await findSceneHits(
        ctx.db,
        user.team_id,
        hits.map((h) => ({ videoId: h.videoId, index: h.sceneIndex! })),
      );
      const found = new Map(rows.map((r) => [`${r.id}/${r.scene_idx}`, r]));
      const explain = hitMatcher(params);
      const items = [];
      for (const hit of hits) {
        const row = found.get(`${hit.videoId}/${hit.sceneIndex}`);
        if (!row) continue;
        const { scene_idx, scene_description, scene_thumbnail_key, scene_start_ms } = row;
        const match = explain(sceneHitText(row), hit.keywordShare);
        items.push({
          ...serializeVideo(ctx, row),
          similarity_score: hit.score,
          scene_index: scene_idx,
          scene_description,
          // Where the hit's moment starts, so a result opens the detail page at it.
          scene_start_time: formatTimestamp(scene_start_ms),
          scene_thumbnail_path: signAssetPath(ctx, scene_thumbnail_key, row.team_id),
          // The people of the scene the query named (also in match, kept for older clients).
          matched_people: match.people,
          match: serializeMatch(match),
        });
      }
      return page(items, result.total, params);
    },
  );
}
