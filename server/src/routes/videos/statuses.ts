// POST /api/videos/statuses {ids}: where each of many videos stands, in one call. The upload
// batch panel follows hundreds of uploaded files through their analysis with it (issue 42);
// asking for each video's detail would be one request per file. Ids not in the team are left out.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { BATCH_MAX_FILES } from '../../../../src/config/limits.ts';

const UUID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const schema = {
  body: {
    type: 'object',
    required: ['ids'],
    additionalProperties: false,
    properties: {
      ids: {
        type: 'array',
        maxItems: BATCH_MAX_FILES,
        items: { type: 'string', pattern: UUID_PATTERN },
      },
    },
  },
} as const;

interface StatusRow {
  id: string;
  status: string;
  title: string | null;
  failure_code: string | null;
  [column: string]: unknown;
}

export function registerStatusesRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: { ids: string[] } }>('/api/videos/statuses', { schema }, async (request) => {
    const { user } = requireAuth(request);
    const ids = [...new Set(request.body.ids.map((id) => id.toLowerCase()))];
    if (ids.length === 0) return { items: [] };
    const rows = await ctx.db.query<StatusRow>(
      `SELECT v.id, v.status, v.title, v.failure_code FROM videos v
       WHERE v.id = ANY($1::uuid[]) AND v.team_id = $2`,
      [ids, user.team_id],
    );
    // As the video itself answers them (serialize.ts): a failure code only on a failed video.
    const items = rows.map((row) => ({
      id: row.id,
      status: row.status,
      title: row.title,
      failure_code: row.status === 'failed' ? (row.failure_code ?? 'not-finished') : null,
    }));
    return { items };
  });
}
