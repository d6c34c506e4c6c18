// GET /assets/data/(input|output)/<path>?exp=&sig=: files of a video for <img>, <video> and new
// tabs. No bearer token can be sent there, so the signed path is the proof of access; it names
// one storage key of one team's video and expires (server/src/assets/signing.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseRange } from '../../assets/range.ts';
import {
  ASSET_ROOTS,
  isUuid,
  verifyAssetSignature,
  type AssetRoot,
  type Verdict,
} from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import { findVideoTeamId } from '../../repositories/videos.ts';
import { assertSafeKey } from '../../storage/storage.ts';
import { sendDownload } from './downloads.ts';

interface AssetRequest {
  Params: { root: string; '*': string };
  Querystring: Record<string, unknown>;
}

// Types a browser would run as a document get a sandbox so a stored file cannot script the app.
const ACTIVE_TYPES =
  /^(text\/html|image\/svg\+xml|application\/xhtml\+xml|text\/xml|application\/xml)/i;

/** The pipeline writes its WebVTT in UTF-8; an object store may have kept the bare type. */
function withCharset(type: string): string {
  return /^text\/vtt\s*$/i.test(type) ? 'text/vtt; charset=utf-8' : type;
}

function firstString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function safeKey(root: string, rest: string): string | undefined {
  const key = `${root}/${rest}`;
  try {
    assertSafeKey(key);
    return key;
  } catch {
    return undefined;
  }
}

export async function registerAssetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // HEAD is declared rather than derived so it answers the length without reading the file.
  app.route<AssetRequest>({
    method: ['GET', 'HEAD'],
    url: '/assets/data/:root/*',
    config: { public: true },
    handler: async (request: FastifyRequest<AssetRequest>, reply: FastifyReply) => {
      const root = request.params.root as AssetRoot;
      const rest = request.params['*'];
      const notFound = new HttpError(404, 'Not found');
      if (!ASSET_ROOTS.includes(root)) throw notFound;
      const videoId = rest.split('/')[0] ?? '';
      if (!isUuid(videoId) || !safeKey(root, rest)) throw notFound;

      const teamId = await findVideoTeamId(ctx.db, videoId);
      if (!teamId) throw notFound;
      const exp = firstString(request.query.exp);
      const sig = firstString(request.query.sig);
      // The signature names the real key, so either URL root may be used for it; the client
      // then never has to know where the pipeline put a file.
      let key: string | undefined;
      const verdicts: Verdict[] = [];
      for (const candidate of [root, ...ASSET_ROOTS.filter((r) => r !== root)]) {
        const k = `${candidate}/${rest}`;
        const verdict = verifyAssetSignature(ctx, k, exp, sig, teamId);
        verdicts.push(verdict);
        if (verdict === 'ok') {
          key = k;
          break;
        }
      }
      if (!key) {
        throw new HttpError(403, verdicts.includes('expired') ? 'Link expired' : 'Forbidden');
      }
      const maxAge = Math.max(0, Number(exp) - Math.floor(ctx.now() / 1000));
      if (await sendDownload(ctx, reply, { key, teamId, method: request.method, maxAge })) {
        return reply;
      }

      const stat = await ctx.storage.stat(key);
      if (!stat) throw notFound;
      const range = parseRange(firstString(request.headers.range), stat.size);
      if (range.kind === 'unsatisfiable') {
        reply.header('Content-Range', `bytes */${stat.size}`);
        return reply.status(416).send({ detail: 'Range not satisfiable' });
      }
      const contentType = withCharset(stat.contentType ?? 'application/octet-stream');
      reply.header('Content-Type', contentType);
      reply.header('Accept-Ranges', 'bytes');
      reply.header('Cache-Control', `private, max-age=${maxAge}`);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Referrer-Policy', 'no-referrer');
      if (ACTIVE_TYPES.test(contentType)) {
        reply.header(
          'Content-Security-Policy',
          "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        );
      }

      const { start, end } = range.kind === 'partial' ? range : { start: 0, end: stat.size - 1 };
      if (range.kind === 'partial') {
        reply.status(206);
        reply.header('Content-Range', `bytes ${start}-${end}/${stat.size}`);
      }
      reply.header('Content-Length', String(Math.max(0, end - start + 1)));
      if (request.method === 'HEAD' || stat.size === 0) return reply.send();
      return reply.send(await ctx.storage.read(key, { start, end }));
    },
  });
}
