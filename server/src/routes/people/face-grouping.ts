// The team's face grouping setting (issue 30): on by default; only a team administrator changes
// it. Turning it off deletes the team's unnamed groups (their faces belong to nobody); named
// people, and their recognition from people images, stay.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../lib/http-error.ts';
import { lockTeamPeople } from '../../people/store.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { groupingBody } from './schemas.ts';

export async function registerFaceGroupingRoutes(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<void> {
  async function state(teamId: string, canChange: boolean) {
    const [row] = await ctx.db.query<{ face_grouping: boolean }>(
      'SELECT face_grouping FROM teams WHERE id = $1',
      [teamId],
    );
    return { enabled: row?.face_grouping ?? true, can_change: canChange };
  }

  app.get('/api/team/face-grouping', async (request) => {
    const { user } = requireAuth(request);
    return state(user.team_id, user.is_team_admin);
  });

  app.put<{ Body: { enabled: boolean } }>(
    '/api/team/face-grouping',
    { schema: { body: groupingBody } },
    async (request) => {
      const { user } = requireAuth(request);
      if (!user.is_team_admin) {
        throw new HttpError(403, 'Only a team administrator can change this.');
      }
      await ctx.db.tx(async (q) => {
        await lockTeamPeople(q, user.team_id);
        await q.query('UPDATE teams SET face_grouping = $2 WHERE id = $1', [
          user.team_id,
          request.body.enabled,
        ]);
        if (!request.body.enabled) {
          await q.query('DELETE FROM people WHERE team_id = $1 AND name IS NULL', [user.team_id]);
        }
      });
      return state(user.team_id, true);
    },
  );
}
