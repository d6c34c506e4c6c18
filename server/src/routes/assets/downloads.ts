// The analysis downloads behind signed asset paths (server/src/downloads/): the signature has
// been checked for this key and team by the asset route; the file is made from the team's rows.
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { buildDownload } from '../../downloads/build.ts';
import { parseDownloadKey } from '../../downloads/files.ts';
import { contentDisposition } from '../../downloads/name.ts';
import { HttpError } from '../../lib/http-error.ts';
import { findVideoDetail } from '../../repositories/videos.ts';
import { canTranscribe, serializeVideoDetail } from '../videos/serialize.ts';

/** Answers the download a verified key names; false when the key names a stored file. */
export async function sendDownload(
  ctx: AppContext,
  reply: FastifyReply,
  o: { key: string; teamId: string; method: string; maxAge: number },
): Promise<boolean> {
  const wanted = parseDownloadKey(o.key);
  if (!wanted) return false;
  const detail = await findVideoDetail(ctx.db, o.teamId, wanted.videoId);
  const api = detail && serializeVideoDetail(ctx, detail, { transcribes: canTranscribe(ctx) });
  const file = api && buildDownload(wanted.kind, api);
  if (!file) throw new HttpError(404, 'Not found');
  reply.header('Content-Type', file.contentType);
  reply.header('Content-Disposition', contentDisposition(file.name));
  reply.header('Content-Length', String(file.body.length));
  reply.header('Cache-Control', `private, max-age=${o.maxAge}`);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.send(o.method === 'HEAD' ? undefined : file.body);
  return true;
}
