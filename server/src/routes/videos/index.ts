// The team's videos: list, detail, delete and retry. Search lives in similar.ts.
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import { fieldError, HttpError } from '../../lib/http-error.ts';
import { VIDEO_PAGE_SIZE_MAX } from '../../limits.ts';
import { PAGE_SIZE } from '../../../../src/config/limits.ts';
import { deleteVideo } from '../../pipeline/delete-video.ts';
import { retryAnalysis } from '../../pipeline/enqueue.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { allowDuplicate } from '../../repositories/content-hash.ts';
import {
  findTeamVideo,
  findVideoDetail,
  listVideos,
  markFailed,
  markRetrying,
} from '../../repositories/videos.ts';
import { idParams, listVideosQuery, type ListVideosQuery } from './schemas.ts';
import { canTranscribe, serializeVideo, serializeVideoDetail } from './serialize.ts';
import { registerSimilarRoutes } from './similar.ts';
import { registerStatusesRoute } from './statuses.ts';

const MAX_TAGS = 50;
const MAX_TAG_LENGTH = 200;

/**
 * Tag filter values from "tags=a,b c", "tags[]=a&tags[]=b" or "tags[0]=a". Each comma-separated
 * entry counts whole and word by word, so "new york" finds both a "New York" and a "york" tag.
 */
export function parseTagFilter(query: Record<string, unknown>): string[] {
  const raw: unknown[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (!/^tags(\[\d*\])?$/.test(name)) continue;
    raw.push(...(Array.isArray(value) ? value : [value]));
  }
  const tags = new Set<string>();
  for (const value of raw) {
    if (typeof value !== 'string') throw fieldError('tags', 'tags must be text');
    for (const entry of value.split(',')) {
      const whole = entry.trim().toLowerCase();
      if (!whole) continue;
      tags.add(whole);
      for (const word of whole.split(/\s+/)) tags.add(word);
    }
  }
  const list = [...tags];
  if (list.length > MAX_TAGS || list.some((t) => t.length > MAX_TAG_LENGTH)) {
    throw new HttpError(422, [
      { loc: ['query', 'tags'], msg: 'tags has too many or too long values', type: 'value_error' },
    ]);
  }
  return list;
}

function videoIdOr404(id: string): string {
  if (!isUuid(id)) throw new HttpError(404, 'Video not found');
  return id.toLowerCase();
}

export async function registerVideoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerSimilarRoutes(app, ctx);
  registerStatusesRoute(app, ctx);

  app.get<{ Querystring: ListVideosQuery }>(
    '/api/videos',
    { schema: { querystring: listVideosQuery } },
    async (request) => {
      const { user } = requireAuth(request);
      const page = request.query.page ?? 1;
      const size = Math.min(request.query.size ?? PAGE_SIZE, VIDEO_PAGE_SIZE_MAX);
      const tags = parseTagFilter(request.query);
      const { rows, total } = await listVideos(ctx.db, {
        teamId: user.team_id,
        page,
        size,
        tags,
        sort: request.query.sort ?? 'priority',
      });
      return {
        items: rows.map((row) => serializeVideo(ctx, row)),
        total,
        pages: Math.ceil(total / size),
        page,
        size,
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/videos/:id',
    { schema: { params: idParams } },
    async (request) => {
      const { user } = requireAuth(request);
      const id = videoIdOr404(request.params.id);
      const detail = await findVideoDetail(ctx.db, user.team_id, id);
      if (!detail) throw new HttpError(404, 'Video not found');
      return serializeVideoDetail(ctx, detail, { transcribes: canTranscribe(ctx) });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/videos/:id',
    { schema: { params: idParams } },
    async (request) => {
      const { user } = requireAuth(request);
      const id = videoIdOr404(request.params.id);
      if (!(await findTeamVideo(ctx.db, user.team_id, id))) {
        throw new HttpError(404, 'Video not found');
      }
      if (!(await deleteVideo(ctx, id))) throw new HttpError(404, 'Video not found');
      return { id, deleted: true };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/videos/:id/retry-process',
    { schema: { params: idParams } },
    async (request) => {
      const { user } = requireAuth(request);
      const id = videoIdOr404(request.params.id);
      // {allow_duplicate: true}: analyse a video that failed as a duplicate after all (issue 42).
      const allow = (request.body as { allow_duplicate?: unknown } | undefined)?.allow_duplicate;
      if (allow !== undefined && typeof allow !== 'boolean') {
        throw fieldError('allow_duplicate', 'allow_duplicate must be a boolean');
      }
      const result = await markRetrying(ctx.db, user.team_id, id);
      if (!result) throw new HttpError(404, 'Video not found');
      if (!result.retried) {
        throw new HttpError(
          409,
          `Only a failed video can be retried (this one is ${result.status})`,
        );
      }
      if (allow) await allowDuplicate(ctx.db, id);
      try {
        await retryAnalysis(ctx, id);
      } catch (err) {
        await markFailed(ctx.db, id, 'The retry could not be started', 'not-finished');
        throw err;
      }
      const row = await findTeamVideo(ctx.db, user.team_id, id);
      if (!row) throw new HttpError(404, 'Video not found');
      return serializeVideo(ctx, row);
    },
  );
}
