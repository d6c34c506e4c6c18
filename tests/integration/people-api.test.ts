// The People API (issue 30) over real HTTP on the embedded database: faces with synthetic
// descriptors (people are points far apart in 128 numbers) are assigned by the real
// assignVideoFaces, then listed, named, merged and corrected; keyword search follows at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignVideoFaces } from '../../server/src/people/assign.ts';
import { deleteUserCascade } from '../../server/src/repositories/users.ts';
import { deleteExpiredVideos } from '../../server/src/retention/delete-expired.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token: string;
let otherToken: string;
let adminToken: string;
let teamId: string;

/** A face of person `who` (a point on its own axis), a little off by `jitter`. */
function face(who: number, jitter = 0): string {
  const v = new Array<number>(128).fill(0);
  v[who] = 1;
  v[(who + 64) % 128] = jitter;
  return `[${v.join(',')}]`;
}

/** A completed video of `scenes` scenes; scene i shows the people of faces[i]. */
async function video(
  title: string,
  faces: number[][],
  opts: { team?: string; descriptions?: string[]; ownerId?: string; createdAt?: Date } = {},
): Promise<string> {
  const { id } = await seedCompletedVideo(server.ctx, {
    teamId: opts.team ?? teamId,
    ownerId: opts.ownerId ?? null,
    createdAt: opts.createdAt,
    title,
    scenes: faces.map((_, i) => ({
      description: opts.descriptions?.[i] ?? `Scene ${i} of ${title}`,
    })),
  });
  for (const [scene, people] of faces.entries()) {
    for (const [i, who] of people.entries()) {
      await server.ctx.db.query(
        `INSERT INTO scene_faces (video_id, scene_idx, face_idx, descriptor, frame_idx, crop_key)
         VALUES ($1, $2, $3, $4::vector, 0, $5)`,
        [id, scene, i, face(who, (scene + 1) * 0.01), `output/${id}/scenes/${scene}/thumbnail.jpg`],
      );
    }
  }
  await assignVideoFaces(server.ctx.db, id);
  return id;
}

async function groups(t = token) {
  const res = await server.call('GET', '/api/people?named=false', { token: t });
  expect(res.status).toBe(200);
  return res.body as {
    items: {
      id: string;
      name: string | null;
      face_count: number;
      scene_count: number;
      video_count: number;
      faces: string[];
      face_url: string | null;
    }[];
    total: number;
  };
}

async function sceneHits(text: string): Promise<{ id: string; scene_index: number }[]> {
  const q = new URLSearchParams({ description: text, searchMethod: 'sparse' });
  const res = await server.call('GET', `/api/videos/find-similar-scenes?${q}`, { token });
  expect(res.status).toBe(200);
  return (res.body.items as { id: string; scene_index: number }[]) ?? [];
}

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  const a = await server.createUser({ email: 'a@example.com', password: 'password1', team: 'A' });
  await server.createUser({ email: 'b@example.com', password: 'password1', team: 'B' });
  await server.createUser({
    email: 'admin@example.com',
    password: 'password1',
    team: 'A',
    isTeamAdmin: true,
  });
  token = await server.login('a@example.com', 'password1');
  otherToken = await server.login('b@example.com', 'password1');
  adminToken = await server.login('admin@example.com', 'password1');
  teamId = await teamOf(server.ctx, a);
});
afterAll(() => server.close());

describe('people of a team', () => {
  let grace: string;
  let first: string;

  it('groups the same unnamed face across two videos and lists the group', async () => {
    first = await video('Harbour tour', [[1], [1, 2], [3]]);
    await video('Market day', [[1], [4]]);
    const list = await groups();
    const group = list.items.find((g) => g.face_count === 3)!;
    expect(group).toMatchObject({ name: null, scene_count: 3, video_count: 2 });
    expect(group.faces).toHaveLength(3);
    expect(group.face_url).toMatch(/\?exp=\d+&sig=/);
    // One-scene faces are not listed as groups.
    expect(list.items.every((g) => g.scene_count >= 2)).toBe(true);
    grace = group.id;
  });

  it('names a group, and keyword search finds its scenes by the name at once', async () => {
    expect(await sceneHits('Gracehopper')).toEqual([]);
    const res = await server.call('PATCH', `/api/people/${grace}`, {
      token,
      body: { name: '  Gracehopper ' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: grace, name: 'Gracehopper', scene_count: 3 });
    const hits = await sceneHits('Gracehopper');
    expect(hits).toHaveLength(3);
    const named = await server.call('GET', '/api/people?named=true', { token });
    expect(named.body.items.map((p: { name: string }) => p.name)).toEqual(['Gracehopper']);
    const faces = await server.ctx.db.query<{ person_name: string }>(
      'SELECT DISTINCT person_name FROM scene_faces WHERE person_id = $1',
      [grace],
    );
    expect(faces).toEqual([{ person_name: 'Gracehopper' }]);
  });

  it("lists the person's scenes newest video first and their faces", async () => {
    const scenes = await server.call('GET', `/api/people/${grace}/scenes?size=2`, { token });
    expect(scenes.status).toBe(200);
    expect(scenes.body).toMatchObject({ total: 3, pages: 2, page: 1, size: 2 });
    expect(scenes.body.items[0]).toMatchObject({ video_title: 'Market day', scene_index: 0 });
    expect(scenes.body.items[1]).toMatchObject({
      video_id: first,
      video_title: 'Harbour tour',
      scene_index: 0,
      start_time: '00:00:00.000',
      end_time: '00:00:02.000',
    });
    const faces = await server.call('GET', `/api/people/${grace}/faces`, { token });
    expect(faces.body.total).toBe(3);
    expect(faces.body.items[0]).toMatchObject({ video_id: first, scene_index: 0 });
  });

  it('renames a person and the old name in descriptions as a word', async () => {
    const v = await video('Quay', [[1], [9]], {
      descriptions: ['Gracehopper waves; Gracehoppers is another word', 'Nobody here'],
    });
    const res = await server.call('PATCH', `/api/people/${grace}`, {
      token,
      body: { name: 'Grace Hopper' },
    });
    expect(res.status).toBe(200);
    const [scene] = await server.ctx.db.query<{ description: string }>(
      'SELECT description FROM scenes WHERE video_id = $1 AND idx = 0',
      [v],
    );
    expect(scene!.description).toBe('Grace Hopper waves; Gracehoppers is another word');
    expect(await sceneHits('Hopper')).toHaveLength(4);
  });

  it('refuses bad names with a clear 4xx and changes nothing', async () => {
    const cases: [unknown, number, string][] = [
      [{ name: '   ' }, 422, 'Enter a name.'],
      [{ name: 'x'.repeat(101) }, 422, 'Use at most 100 characters.'],
    ];
    for (const [body, status, detail] of cases) {
      const res = await server.call('PATCH', `/api/people/${grace}`, { token, body });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ detail });
    }
    const [other] = await server.ctx.db.query<{ id: string }>(
      'SELECT id FROM people WHERE team_id = $1 AND name IS NULL LIMIT 1',
      [teamId],
    );
    const dup = await server.call('PATCH', `/api/people/${other!.id}`, {
      token,
      body: { name: 'grace hopper' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      detail: 'Another person already has this name. Merge them instead.',
    });
    const missing = await server.call('PATCH', `/api/people/${grace}`, { token, body: {} });
    expect(missing.status).toBe(422);
    const after = await server.call('GET', `/api/people/${grace}`, { token });
    expect(after.body).toMatchObject({ name: 'Grace Hopper', face_count: 4 });
  });

  it('merges a group into a person; not into themself; stale ids are 404', async () => {
    // Person 2 is seen in two scenes of two videos: a second group.
    await video('Pier', [[2]]);
    const two = (await groups()).items.find((g) => g.face_count === 2 && g.name === null)!;
    const self = await server.call('POST', `/api/people/${two.id}/merge`, {
      token,
      body: { into: two.id },
    });
    expect(self.status).toBe(422);
    expect(self.body).toEqual({ detail: 'A person cannot be merged into themself.' });
    const stale = await server.call('POST', `/api/people/${two.id}/merge`, {
      token,
      body: { into: '00000000-0000-4000-8000-000000000000' },
    });
    expect(stale.status).toBe(404);
    const merged = await server.call('POST', `/api/people/${two.id}/merge`, {
      token,
      body: { into: grace },
    });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: grace, name: 'Grace Hopper', face_count: 6 });
    expect((await server.call('GET', `/api/people/${two.id}`, { token })).status).toBe(404);
    const again = await server.call('POST', `/api/people/${two.id}/merge`, {
      token,
      body: { into: grace },
    });
    expect(again.status).toBe(404);
  });

  it('"not this person" removes the face for good', async () => {
    const faces = await server.call('GET', `/api/people/${grace}/faces?size=100`, { token });
    const wrong = faces.body.items.find((f: { video_title: string }) => f.video_title === 'Pier');
    const res = await server.call('POST', `/api/people/${grace}/faces/${wrong.id}/reject`, {
      token,
    });
    expect(res.status).toBe(204);
    const person = await server.call('GET', `/api/people/${grace}`, { token });
    expect(person.body.face_count).toBe(5);
    const twice = await server.call('POST', `/api/people/${grace}/faces/${wrong.id}/reject`, {
      token,
    });
    expect(twice.status).toBe(404);
    expect(
      (await server.call('POST', `/api/people/${grace}/faces/nope/reject`, { token })).status,
    ).toBe(404);
    const [row] = await server.ctx.db.query<{
      person_id: string | null;
      person_name: string | null;
    }>('SELECT person_id, person_name FROM scene_faces WHERE id = $1', [wrong.id]);
    expect(row).toEqual({ person_id: null, person_name: null });
  });

  it("answers 404 for another team's people on every call", async () => {
    const faces = await server.call('GET', `/api/people/${grace}/faces`, { token });
    const faceId = faces.body.items[0].id as string;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/people/${grace}`],
      ['GET', `/api/people/${grace}/scenes`],
      ['GET', `/api/people/${grace}/faces`],
      ['PATCH', `/api/people/${grace}`, { name: 'Mallory' }],
      ['POST', `/api/people/${grace}/merge`, { into: grace }],
      ['POST', `/api/people/${grace}/faces/${faceId}/reject`],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.call(method, path, { token: otherToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found' });
    }
    const theirs = await server.call('GET', '/api/people?named=true', { token: otherToken });
    expect(theirs.body.items).toEqual([]);
    const person = await server.call('GET', `/api/people/${grace}`, { token });
    expect(person.body).toMatchObject({ name: 'Grace Hopper', face_count: 5 });
  });

  it('never compares faces of two teams', async () => {
    const b = await server.ctx.db.query<{ team_id: string }>(
      "SELECT team_id FROM users WHERE email = 'b@example.com'",
    );
    await video('Elsewhere', [[1], [1]], { team: b[0]!.team_id });
    const theirs = await groups(otherToken);
    expect(theirs.items).toHaveLength(1);
    expect(theirs.items[0]).toMatchObject({ name: null, face_count: 2 });
  });

  it('the team setting: admins only; off deletes the unnamed groups, keeps named people', async () => {
    expect((await server.call('GET', '/api/team/face-grouping', { token })).body).toEqual({
      enabled: true,
      can_change: false,
    });
    const refused = await server.call('PUT', '/api/team/face-grouping', {
      token,
      body: { enabled: false },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Only a team administrator can change this.' });
    const unnamed = 'SELECT 1 FROM people WHERE team_id = $1 AND name IS NULL';
    expect((await server.ctx.db.query(unnamed, [teamId])).length).toBeGreaterThan(0);
    const off = await server.call('PUT', '/api/team/face-grouping', {
      token: adminToken,
      body: { enabled: false },
    });
    expect(off.body).toEqual({ enabled: false, can_change: true });
    expect(await server.ctx.db.query(unnamed, [teamId])).toEqual([]);
    // New faces: the named person is still recognised; strangers make no group.
    await video('Later', [[1], [7], [7]]);
    const person = await server.call('GET', `/api/people/${grace}`, { token });
    expect(person.body.face_count).toBe(6);
    expect(
      await server.ctx.db.query('SELECT 1 FROM people WHERE team_id = $1 AND name IS NULL', [
        teamId,
      ]),
    ).toEqual([]);
    const on = await server.call('PUT', '/api/team/face-grouping', {
      token: adminToken,
      body: { enabled: true },
    });
    expect(on.body.enabled).toBe(true);
  });

  it('deleting videos removes their faces and the groups left empty', async () => {
    const v = await video('Short-lived', [[20], [20]]);
    const group = (await groups()).items.find((g) => g.video_count === 1 && g.face_count === 2)!;
    const res = await server.call('DELETE', `/api/videos/${v}`, { token });
    expect(res.status).toBe(200);
    expect((await server.call('GET', `/api/people/${group.id}`, { token })).status).toBe(404);
    expect(await server.ctx.db.query('SELECT 1 FROM scene_faces WHERE video_id = $1', [v])).toEqual(
      [],
    );
    expect(
      await server.ctx.db.query('SELECT 1 FROM face_vectors WHERE video_id = $1', [v]),
    ).toEqual([]);
  });

  it('the 3-year retention and account deletion take the faces and their groups with them', async () => {
    const faceRows = 'SELECT count(*)::int AS n FROM scene_faces WHERE video_id = $1';
    const peopleOf = (v: string) =>
      server.ctx.db.query(
        'SELECT 1 FROM people p WHERE EXISTS (SELECT 1 FROM scene_faces f WHERE f.video_id = $1 AND f.person_id = p.id)',
        [v],
      );
    const old = await video('Old', [[30], [30]], {
      createdAt: new Date(server.ctx.now() - 4 * 366 * 24 * 3600 * 1000),
    });
    expect(await peopleOf(old)).toHaveLength(1);
    const groupsBefore = await server.ctx.db.query('SELECT id FROM people WHERE team_id = $1', [
      teamId,
    ]);
    expect(await deleteExpiredVideos(server.ctx)).toBe(1);
    expect(await server.ctx.db.query(faceRows, [old])).toEqual([{ n: 0 }]);
    const groupsAfter = await server.ctx.db.query('SELECT id FROM people WHERE team_id = $1', [
      teamId,
    ]);
    expect(groupsAfter).toHaveLength(groupsBefore.length - 1);

    const leaver = await server.createUser({
      email: 'c@example.com',
      password: 'password1',
      team: 'A',
    });
    const theirs = await video('Theirs', [[31], [31]], { ownerId: leaver });
    expect(await peopleOf(theirs)).toHaveLength(1);
    await server.ctx.db.tx((q) => deleteUserCascade(q, leaver));
    expect(await server.ctx.db.query(faceRows, [theirs])).toEqual([{ n: 0 }]);
    expect(
      await server.ctx.db.query('SELECT id FROM people WHERE team_id = $1', [teamId]),
    ).toHaveLength(groupsAfter.length);
  });
});
