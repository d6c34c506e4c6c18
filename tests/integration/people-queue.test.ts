// People through the job queue with real faces (issue 30): short videos cut from the real
// recording of Franck (tests/support/face-photos.ts) are analysed by the real pipeline, whose
// perceive step assigns their faces (server/src/people/assign.ts). Two videos of the same unnamed
// man form one group; naming it makes the scenes of both findable by the name; a face taken out
// with "not this person" stays out after a third video of him.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../support/analyse-file.ts';
import { facePhoto, FRANCK_VIDEO, makeFaceVideo } from '../support/face-photos.ts';
import { teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token: string;
let owner: string;
let teamId: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-people-queue-'));

/** A video of Franck from `fromSec`, then a cut to `after`; analysed to its end. */
async function analyse(name: string, fromSec: number, after: string | null): Promise<string> {
  const file = await makeFaceVideo(
    [
      { video: FRANCK_VIDEO, fromSec, seconds: 2.5 },
      after ? { photo: facePhoto(after), seconds: 2.5 } : { source: 'testsrc', seconds: 2 },
    ],
    path.join(tmp, `${name}.mp4`),
  );
  return analyseFile(server.ctx, {
    teamId,
    ownerId: owner,
    file,
    filename: `${name}.mp4`,
    language: 'en',
    timeoutMs: 240_000,
  });
}

type Summary = { id: string; name: string | null; video_count: number; face_count: number };

async function people(named: boolean): Promise<Summary[]> {
  const res = await server.call('GET', `/api/people?named=${named}`, { token });
  expect(res.status).toBe(200);
  return res.body.items as Summary[];
}

async function sceneVideos(text: string): Promise<string[]> {
  const q = new URLSearchParams({ description: text, searchMethod: 'sparse', kValue: '10' });
  const res = await server.call('GET', `/api/videos/find-similar-scenes?${q}`, { token });
  expect(res.status).toBe(200);
  return (res.body.items as { id: string }[]).map((s) => s.id);
}

let first: string;
let second: string;
let group: Summary;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser({ email: 'people@example.com', password: 'password1' });
  token = await server.login('people@example.com', 'password1');
  teamId = await teamOf(server.ctx, owner);
  first = await analyse('first', 10, null);
  second = await analyse('second', 30, 'cage.jpg');
}, 600_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('people grouped by the analysis', () => {
  it('groups the same unnamed man of two videos into one group', async () => {
    const groups = await people(false);
    expect(groups).toHaveLength(1);
    group = groups[0]!;
    expect(group).toMatchObject({ name: null, video_count: 2 });
    const scenes = await server.call('GET', `/api/people/${group.id}/scenes`, { token });
    expect(scenes.body.items.map((s: { video_id: string }) => s.video_id).sort()).toEqual(
      [first, second].sort(),
    );
  });

  it('naming the group makes the scenes of both videos findable by the name', async () => {
    expect(await sceneVideos('Dupontel')).toEqual([]);
    const res = await server.call('PATCH', `/api/people/${group.id}`, {
      token,
      body: { name: 'Franck Dupontel' },
    });
    expect(res.status).toBe(200);
    const found = await sceneVideos('Dupontel');
    expect(new Set(found)).toEqual(new Set([first, second]));
  });

  it('"not this person" holds after a third video of him', async () => {
    const faces = await server.call('GET', `/api/people/${group.id}/faces?size=100`, { token });
    const wrong = faces.body.items.find((f: { video_id: string }) => f.video_id === second);
    expect(wrong).toBeDefined();
    const res = await server.call('POST', `/api/people/${group.id}/faces/${wrong.id}/reject`, {
      token,
    });
    expect(res.status).toBe(204);
    const third = await analyse('third', 40, null);
    const person = await server.call('GET', `/api/people/${group.id}`, { token });
    expect(person.body).toMatchObject({ name: 'Franck Dupontel', video_count: 2 });
    const [face] = await server.ctx.db.query<{ person_id: string | null }>(
      'SELECT person_id FROM scene_faces WHERE id = $1',
      [wrong.id],
    );
    expect(face!.person_id).toBeNull();
    expect(new Set(await sceneVideos('Dupontel'))).toEqual(new Set([first, third]));
  }, 300_000);
});
