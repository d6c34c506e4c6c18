// GET /api/videos/{id}/report/report.html: the report in a browser tab. The app opens it with a
// plain link (no bearer header), so the query carries the signature of the video's report_path
// (exp, sig over the report's storage key and the owning team); a bearer token works as well.
// Served as a document that can load nothing and run nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUuid, verifyAssetSignature } from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { teamReport } from '../../repositories/outputs.ts';
import { findSessionWithUser } from '../../repositories/sessions.ts';
import { findVideoTeamId } from '../../repositories/videos.ts';

export const REPORT_CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

interface PageRequest {
  Params: { id: string };
  Querystring: Record<string, unknown>;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The team of a valid bearer session (same rules as the API's auth gate), else undefined. */
async function bearerTeam(ctx: AppContext, request: FastifyRequest): Promise<string | undefined> {
  const token = bearerToken(request);
  if (!token) return undefined;
  const found = await findSessionWithUser(ctx.db, token);
  const now = ctx.now();
  if (!found || found.session.expires_at.getTime() <= now)
    throw new HttpError(401, 'Session expired');
  const { user } = found;
  if (!user || user.must_change_password) throw new HttpError(401, 'Not authenticated');
  return user.team_id;
}

export function registerReportPage(app: FastifyInstance, ctx: AppContext): void {
  app.get<PageRequest>(
    '/api/videos/:id/report/report.html',
    { config: { public: true } },
    async (request, reply) => {
      const notFound = new HttpError(404, 'Report not found');
      if (!isUuid(request.params.id)) throw notFound;
      const videoId = request.params.id.toLowerCase();
      const exp = text(request.query.exp);
      const sig = text(request.query.sig);

      let key: string | null | undefined;
      if (exp !== undefined || sig !== undefined) {
        const teamId = await findVideoTeamId(ctx.db, videoId);
        key = teamId ? (await teamReport(ctx.db, teamId, videoId))?.report_key : undefined;
        if (!teamId || !key) throw notFound;
        const verdict = verifyAssetSignature(ctx, key, exp, sig, teamId);
        if (verdict !== 'ok')
          throw new HttpError(403, verdict === 'expired' ? 'Link expired' : 'Forbidden');
      } else {
        const teamId = await bearerTeam(ctx, request);
        if (!teamId) throw new HttpError(401, 'Not authenticated');
        key = (await teamReport(ctx.db, teamId, videoId))?.report_key;
        if (!key) throw notFound;
      }

      const stat = await ctx.storage.stat(key);
      if (!stat) throw notFound;
      reply.header('Content-Type', 'text/html; charset=utf-8');
      reply.header('Content-Security-Policy', REPORT_CSP);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Referrer-Policy', 'no-referrer');
      reply.header('Cache-Control', 'private, no-cache');
      reply.header('Content-Length', String(stat.size));
      return reply.send(await ctx.storage.read(key));
    },
  );
}
