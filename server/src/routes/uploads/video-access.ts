// Who may touch a video through the upload routes: only its team, and the others learn nothing
// (404 whether the video exists or not).
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { findTeamVideo } from '../../repositories/videos.ts';
import type { UploadVideoRow } from '../../repositories/videos-upload.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const VIDEO_NOT_FOUND = 'Video not found';
export const NOT_UPLOADING = 'The video is no longer accepting uploads.';

export async function teamVideo(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
): Promise<UploadVideoRow> {
  const { user } = requireAuth(request);
  const video = UUID.test(id) ? await findTeamVideo(ctx.db, user.team_id, id) : undefined;
  if (!video) throw new HttpError(404, VIDEO_NOT_FOUND);
  return video;
}

/** The team's video, still waiting for its files. */
export async function uploadingVideo(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
): Promise<UploadVideoRow> {
  const video = await teamVideo(ctx, request, id);
  if (video.status !== 'uploading') throw new HttpError(409, NOT_UPLOADING);
  return video;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The origin a browser reaches this server at, for the URLs the local driver signs: PUBLIC_URL
 * when it was set explicitly (a proxy in front), else the origin of the request itself.
 */
export function requestOrigin(ctx: AppContext, request: FastifyRequest): string {
  const { publicUrl, host, port } = ctx.config;
  if (publicUrl !== `http://${host}:${port}`) return publicUrl;
  return `${request.protocol}://${request.host}`;
}

export const videoIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' } },
} as const;
