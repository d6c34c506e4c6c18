// POST /api/videos/{id}/make-trailer and /make-report: check, set the creating flag and queue
// the job in one transaction, answer at once with the video (its flag now set).
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import { JobName } from '../../jobs/names.ts';
import { enqueue, wakeWorkers } from '../../jobs/queue.ts';
import { fieldError, HttpError } from '../../lib/http-error.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { startCreating, type OutputKind } from '../../repositories/outputs.ts';
import { findTeamVideo } from '../../repositories/videos.ts';
import { serializeVideo } from '../videos/serialize.ts';
import { reportBody, trailerBody, videoIdParams } from './schemas.ts';

const KINDS = {
  trailer: {
    path: '/api/videos/:id/make-trailer',
    field: 'trailer_instruction',
    body: trailerBody,
    job: JobName.MakeTrailer,
    busy: 'A trailer is already being created for this video. Please wait until it is ready.',
    notReady: 'A trailer can be made once the video has been analysed.',
  },
  report: {
    path: '/api/videos/:id/make-report',
    field: 'report_instruction',
    body: reportBody,
    job: JobName.MakeReport,
    busy: 'A report is already being created for this video. Please wait until it is ready.',
    notReady: 'A report can be made once the video has been analysed.',
  },
} as const;

function registerOne(app: FastifyInstance, ctx: AppContext, kind: OutputKind): void {
  const k = KINDS[kind];
  app.post<{ Params: { id: string }; Body: Record<string, string> }>(
    k.path,
    { schema: { params: videoIdParams, body: k.body } },
    async (request) => {
      const { user } = requireAuth(request);
      if (!isUuid(request.params.id)) throw new HttpError(404, 'Video not found');
      const videoId = request.params.id.toLowerCase();
      const instruction = (request.body[k.field] ?? '').trim();
      if (!instruction) throw fieldError(k.field, 'This field is required', 'missing');

      const outcome = await ctx.db.tx(async (q) => {
        const started = await startCreating(q, kind, {
          teamId: user.team_id,
          videoId,
          instruction,
        });
        // A job still queued for the video (e.g. the upload's trailer) picks up the new text.
        if (started === 'started') await enqueue(ctx, k.job, videoId, { q });
        return started;
      });
      if (outcome === 'not_found') throw new HttpError(404, 'Video not found');
      if (outcome === 'not_completed') throw new HttpError(409, k.notReady);
      if (outcome === 'busy') throw new HttpError(409, k.busy);
      wakeWorkers(k.job);
      const row = await findTeamVideo(ctx.db, user.team_id, videoId);
      if (!row) throw new HttpError(404, 'Video not found');
      return serializeVideo(ctx, row);
    },
  );
}

export function registerMakeOutputRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerOne(app, ctx, 'trailer');
  registerOne(app, ctx, 'report');
}
