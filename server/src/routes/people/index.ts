// The People API (issue 30, docs/api.md "People"): the team's named people and unnamed groups,
// their scenes and faces, naming, merging and "not this person". Everything is scoped to the
// caller's team: another team's ids answer 404 like unknown ones.
import type { FastifyInstance } from 'fastify';
import {
  PEOPLE_MAX_PAGE_SIZE,
  PEOPLE_PAGE_SIZE,
  PERSON_FACES_PAGE_SIZE,
  PERSON_SCENES_PAGE_SIZE,
} from '../../../../src/config/limits.ts';
import { isUuid } from '../../assets/signing.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { HttpError } from '../../lib/http-error.ts';
import { mergeInto, rejectFace, renamePerson, type Touched } from '../../people/corrections.ts';
import { findPerson, listPeople, personFaces, personScenes } from '../../people/read.ts';
import { reindexTouched, wakeReindex } from '../../people/reindex.ts';
import { lockTeamPeople } from '../../people/store.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { registerFaceGroupingRoutes } from './face-grouping.ts';
import {
  faceParams,
  listPeopleQuery,
  mergeBody,
  pageQuery,
  personParams,
  renameBody,
  type ListPeopleQuery,
  type PageQuery,
} from './schemas.ts';
import { serializeFace, serializePerson, serializeScene } from './serialize.ts';

const NOT_FOUND = 'Not found';

function personIdOr404(id: string): string {
  if (!isUuid(id)) throw new HttpError(404, NOT_FOUND);
  return id.toLowerCase();
}

function faceIdOr404(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw new HttpError(404, NOT_FOUND);
  return Number(id);
}

function paging(query: PageQuery, fallback: number): { page: number; size: number } {
  return { page: query.page ?? 1, size: Math.min(query.size ?? fallback, PEOPLE_MAX_PAGE_SIZE) };
}

function pageOf<T>(items: T[], total: number, page: number, size: number) {
  return { items, total, pages: Math.ceil(total / size), page, size };
}

export async function registerPeopleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerFaceGroupingRoutes(app, ctx);

  /** The team's person or a 404. */
  async function teamPerson(q: Queryable, teamId: string, rawId: string) {
    const person = await findPerson(q, teamId, personIdOr404(rawId));
    if (!person) throw new HttpError(404, NOT_FOUND);
    return person;
  }

  /**
   * One correction in one transaction under the team's people lock, the keyword rows of what it
   * touched rebuilt in it; answers the person as it then is.
   */
  async function correct(
    teamId: string,
    personId: string,
    change: (q: Queryable) => Promise<Touched>,
  ) {
    const touched = await ctx.db.tx(async (q) => {
      await lockTeamPeople(q, teamId);
      const t = await change(q);
      await reindexTouched(q, t, ctx.now());
      return t;
    });
    wakeReindex(touched);
    return touched;
  }

  app.get<{ Querystring: ListPeopleQuery }>(
    '/api/people',
    { schema: { querystring: listPeopleQuery } },
    async (request) => {
      const { user } = requireAuth(request);
      const { page, size } = paging(request.query, PEOPLE_PAGE_SIZE);
      const named = request.query.named ?? true;
      const { rows, total } = await listPeople(ctx.db, user.team_id, { named, page, size });
      return pageOf(
        rows.map((r) => serializePerson(ctx, r)),
        total,
        page,
        size,
      );
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/people/:id',
    { schema: { params: personParams } },
    async (request) => {
      const { user } = requireAuth(request);
      return serializePerson(ctx, await teamPerson(ctx.db, user.team_id, request.params.id));
    },
  );

  app.get<{ Params: { id: string }; Querystring: PageQuery }>(
    '/api/people/:id/scenes',
    { schema: { params: personParams, querystring: pageQuery } },
    async (request) => {
      const { user } = requireAuth(request);
      const person = await teamPerson(ctx.db, user.team_id, request.params.id);
      const { page, size } = paging(request.query, PERSON_SCENES_PAGE_SIZE);
      const rows = await personScenes(ctx.db, person.id, page, size);
      return pageOf(
        rows.map((r) => serializeScene(ctx, user.team_id, r)),
        person.scene_count,
        page,
        size,
      );
    },
  );

  app.get<{ Params: { id: string }; Querystring: PageQuery }>(
    '/api/people/:id/faces',
    { schema: { params: personParams, querystring: pageQuery } },
    async (request) => {
      const { user } = requireAuth(request);
      const person = await teamPerson(ctx.db, user.team_id, request.params.id);
      const { page, size } = paging(request.query, PERSON_FACES_PAGE_SIZE);
      const rows = await personFaces(ctx.db, person.id, page, size);
      return pageOf(
        rows.map((r) => serializeFace(ctx, user.team_id, r)),
        person.face_count,
        page,
        size,
      );
    },
  );

  app.patch<{ Params: { id: string }; Body: { name: string } }>(
    '/api/people/:id',
    { schema: { params: personParams, body: renameBody } },
    async (request) => {
      const { user } = requireAuth(request);
      const id = personIdOr404(request.params.id);
      await correct(user.team_id, id, async (q) => {
        await teamPerson(q, user.team_id, id);
        return renamePerson(q, user.team_id, id, request.body.name);
      });
      return serializePerson(ctx, await teamPerson(ctx.db, user.team_id, id));
    },
  );

  app.post<{ Params: { id: string }; Body: { into: string } }>(
    '/api/people/:id/merge',
    { schema: { params: personParams, body: mergeBody } },
    async (request) => {
      const { user } = requireAuth(request);
      const id = personIdOr404(request.params.id);
      const into = personIdOr404(request.body.into);
      await correct(user.team_id, id, async (q) => {
        await teamPerson(q, user.team_id, id);
        if (into === id) throw new HttpError(422, 'A person cannot be merged into themself.');
        await teamPerson(q, user.team_id, into);
        return mergeInto(q, id, into);
      });
      return serializePerson(ctx, await teamPerson(ctx.db, user.team_id, into));
    },
  );

  app.post<{ Params: { id: string; faceId: string } }>(
    '/api/people/:id/faces/:faceId/reject',
    { schema: { params: faceParams } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      const id = personIdOr404(request.params.id);
      const faceId = faceIdOr404(request.params.faceId);
      await correct(user.team_id, id, async (q) => {
        await teamPerson(q, user.team_id, id);
        const touched = await rejectFace(q, id, faceId);
        if (!touched) throw new HttpError(404, NOT_FOUND);
        return touched;
      });
      return reply.code(204).send();
    },
  );
}
