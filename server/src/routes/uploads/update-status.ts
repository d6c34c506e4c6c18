// PUT /api/videos/:id/update-status {status: in_progress}: the client's "the file is up". Only
// when the original file is really there; moves the video on and queues its analysis exactly
// once, so repeated calls (a lost answer, a retrying queue) change nothing.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import { enqueueAnalysis } from '../../pipeline/enqueue.ts';
import { markUploaded, markUploading } from '../../repositories/videos-upload.ts';
import { markFailed } from '../../repositories/videos.ts';
import { VIDEO_MAX_BYTES } from '../../../../src/config/limits.ts';
import { TOO_LARGE_MESSAGE, TOO_LARGE_REASON } from './multipart-routes.ts';
import { teamVideo, videoIdParams } from './video-access.ts';

export const FILE_MISSING = 'The video file has not been fully uploaded yet.';

const schema = {
  params: videoIdParams,
  body: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['in_progress'] } },
  },
} as const;

export function registerUpdateStatus(app: FastifyInstance, ctx: AppContext): void {
  app.put<{ Params: { id: string }; Body: { status: 'in_progress' } }>(
    '/api/videos/:id/update-status',
    { schema },
    async (request) => {
      const video = await teamVideo(ctx, request, request.params.id);
      // Already past the upload (queued, running, done or failed): nothing more to do here.
      if (video.status !== 'uploading') return { data: { id: video.id, status: video.status } };
      const stat = video.source_key ? await ctx.storage.stat(video.source_key) : undefined;
      if (!stat || stat.size === 0) throw new HttpError(409, FILE_MISSING);
      // A store that does not enforce the signed form's size range must not get further either.
      if (stat.size > VIDEO_MAX_BYTES) {
        await ctx.storage.delete(video.source_key!);
        await markFailed(ctx.db, video.id, TOO_LARGE_REASON, 'too-large');
        throw new HttpError(413, TOO_LARGE_MESSAGE);
      }
      if (await markUploaded(ctx.db, video.id, stat.size)) {
        try {
          await enqueueAnalysis(ctx, video.id);
        } catch (err) {
          // Back to uploading so the client's retry of this call queues the analysis after all.
          await markUploading(ctx.db, video.id);
          throw err;
        }
      }
      return { data: { id: video.id, status: 'in_progress' } };
    },
  );
}
