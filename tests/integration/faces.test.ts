// Faces named from the people images (issue 16), with the local provider and no network: a
// video made of a real recording of Franck, a webcam recording of another man, a photo of
// Nicolas Cage and a test pattern is analysed by the real pipeline, with people images of
// Franck and the other man taken from other recordings. Searching each name returns the scenes
// where that person appears, first. Cage, not among the people images, is counted, not named;
// a people image of someone absent names nothing; one with no face is marked.
// Face embeddings are the team's: never matched for another team, and deleted with the video,
// with its people images and with the account.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUserCascade } from '../../server/src/repositories/users.ts';
import {
  facePhoto,
  frameOf,
  FRANCK_VIDEO,
  makeFaceVideo,
  WEBCAM_VIDEOS,
} from '../support/face-photos.ts';
import { teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo } from '../support/videos.ts';
import { analyseUploaded, uploadPeopleImages } from '../support/people-images.ts';

let server: TestServer;
let token: string;
let owner: string;
let videoId: string;
let source: Buffer;
/** Franck alone, for the videos of the team checks. */
let short: Buffer;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-faces-'));

async function newVideo(t: string, about = ''): Promise<string> {
  const created = await createVideo(server, t, {
    filename: 'interviews.mp4',
    video_length: 15,
    about_this_video: about,
  });
  return created.id;
}

const uploadPeople = (id: string, t: string, people: [string, string][]): Promise<void> =>
  uploadPeopleImages(server, id, t, people);
const analyse = (id: string, file: Buffer): Promise<void> => analyseUploaded(server, id, file);

const sceneSearch = (description: string, searchMethod: string) =>
  server.call(
    'GET',
    `/api/videos/find-similar-scenes?${new URLSearchParams({ description, searchMethod, kValue: '10' })}`,
    { token },
  );

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser({ email: 'faces@example.com', password: 'password1' });
  token = await server.login('faces@example.com', 'password1');
  source = fs.readFileSync(
    await makeFaceVideo(
      [
        { video: FRANCK_VIDEO, fromSec: 10, seconds: 4 },
        { video: WEBCAM_VIDEOS[0]!, fromSec: 8, seconds: 4 },
        { photo: facePhoto('cage.jpg'), seconds: 4 },
        { source: 'testsrc', seconds: 3 },
      ],
      path.join(tmp, 'faces.mp4'),
    ),
  );
  short = fs.readFileSync(
    await makeFaceVideo(
      [{ video: FRANCK_VIDEO, fromSec: 10, seconds: 3 }],
      path.join(tmp, 'franck.mp4'),
    ),
  );
  videoId = await newVideo(token);
  // Pictures other than the video's: a frame of Franck's recording outside the clip, a frame
  // of the other webcam recording.
  await uploadPeople(videoId, token, [
    ['Franck Dupont', facePhoto('franck_02888.jpg')],
    ['Audun Øygard', await frameOf(WEBCAM_VIDEOS[1]!, 2, path.join(tmp, 'audun.jpg'))],
    ['Sean Connery', facePhoto('SeanConnery.jpg')],
    ['Iron Man', facePhoto('ironman.jpg')],
  ]);
  await analyse(videoId, source);
}, 600_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function descriptions(id: string): Promise<string[]> {
  const rows = await server.ctx.db.query<{ description: string }>(
    'SELECT description FROM scenes WHERE video_id = $1 ORDER BY idx',
    [id],
  );
  return rows.map((r) => r.description);
}

describe('faces named from the people images', () => {
  it('names each person in the scenes where they appear, and nobody else', async () => {
    const scenes = await descriptions(videoId);
    expect(scenes).toHaveLength(4);
    expect(scenes[0]).toContain('Franck Dupont is in the picture.');
    expect(scenes[0]).not.toContain('Audun');
    expect(scenes[1]).toContain('Audun Øygard is in the picture.');
    expect(scenes[1]).not.toContain('Franck');
    expect(scenes[2]).toContain('One person is in the picture.');
    expect(scenes[3]).not.toContain('in the picture');
    expect(scenes.join(' ')).not.toMatch(/Sean Connery|Iron Man|Cage/);
    const [video] = await server.ctx.db.query<{ title: string; summary: string }>(
      'SELECT title, summary FROM videos WHERE id = $1',
      [videoId],
    );
    expect(video!.title).toContain('Franck Dupont');
    expect(video!.summary).toContain('Franck Dupont and Audun Øygard appear in 2 of the 4 scenes.');
  });

  it('returns the scenes of a person first when their name is searched, by each method', async () => {
    for (const method of ['sparse', 'dense', 'hybrid']) {
      const franck = await sceneSearch('Franck Dupont', method);
      expect(franck.status).toBe(200);
      // The result says the person matched.
      expect(franck.body.items[0]).toMatchObject({
        id: videoId,
        scene_index: 0,
        matched_people: ['Franck Dupont'],
      });
      const audun = await sceneSearch('Audun Øygard', method);
      expect(audun.body.items[0]).toMatchObject({ id: videoId, scene_index: 1 });
    }
  });

  it('lists the recognised people with their scenes and marks a people image without a face', async () => {
    const res = await server.call('GET', `/api/videos/${videoId}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.people).toEqual([
      { name: 'Franck Dupont', scenes: [0], face_found: 'one' },
      { name: 'Audun Øygard', scenes: [1], face_found: 'one' },
      { name: 'Sean Connery', scenes: [], face_found: 'one' },
      { name: 'Iron Man', scenes: [], face_found: 'none' },
    ]);
    // Each scene names its people with their reference picture, a signed path that opens it.
    const scenes = res.body.output_data.scenes as {
      people: { name: string; face_thumbnail: string }[];
    }[];
    const names = scenes.map((s) => s.people.map((p) => p.name));
    // The video's later scenes show nobody.
    expect(names).toEqual([['Franck Dupont'], ['Audun Øygard'], ...names.slice(2).map(() => [])]);
    const picture = await fetch(
      `${server.url}/assets/data/output/${scenes[0]!.people[0]!.face_thumbnail}`,
    );
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
  });
});

describe('the faces stored for the People pages', () => {
  it('keeps each scene face’s descriptor, frame, box and a JPEG crop of it', async () => {
    const faces = await server.ctx.db.query<{
      scene_idx: number;
      dims: number;
      frame_idx: number;
      box: number[];
      crop_key: string;
      frames: string[];
    }>(
      `SELECT f.scene_idx, vector_dims(f.descriptor) AS dims, f.frame_idx, f.box, f.crop_key,
              s.frames
       FROM scene_faces f JOIN scenes s ON s.video_id = f.video_id AND s.idx = f.scene_idx
       WHERE f.video_id = $1 ORDER BY f.scene_idx, f.face_idx`,
      [videoId],
    );
    // Franck, the webcam man and Cage: one face each, on a frame the scene keeps.
    expect(faces.map((f) => f.scene_idx)).toEqual([0, 1, 2]);
    for (const f of faces) {
      expect(f.dims).toBe(128);
      expect(f.frame_idx).toBeGreaterThanOrEqual(0);
      expect(f.frame_idx).toBeLessThan(f.frames.length);
      const [x, y, w, h] = f.box;
      // A face of a 640x360 frame, of a plausible size.
      expect(Math.min(w!, h!)).toBeGreaterThanOrEqual(40);
      expect(x! + w! / 2).toBeGreaterThan(0);
      expect(y! + h! / 2).toBeLessThan(360);
      const local = await server.ctx.storage.localPath(f.crop_key);
      const crop = fs.readFileSync(local.path);
      await local.release();
      expect(crop.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    }
    // The people images have their descriptors too, except the one without a face.
    const people = await server.ctx.db.query<{ name: string; dims: number | null }>(
      `SELECT name, vector_dims(descriptor) AS dims FROM video_people
       WHERE video_id = $1 ORDER BY position`,
      [videoId],
    );
    expect(people.map((p) => p.dims)).toEqual([128, 128, 128, null]);
  });
});

describe('face embeddings are the team’s own data', () => {
  it('never matches a face against another team’s people', async () => {
    const other = await server.createUser({
      email: 'rival@example.com',
      password: 'password1',
      team: 'Rivals',
    });
    const rivalToken = await server.login('rival@example.com', 'password1');
    // The rival team's video has its own people image of Franck under another name...
    const rivalVideo = await newVideo(rivalToken);
    await uploadPeople(rivalVideo, rivalToken, [['Le Rival', facePhoto('franck_01829.jpg')]]);
    await analyse(rivalVideo, short);
    expect((await descriptions(rivalVideo))[0]).toContain('Le Rival');
    // ...and our team's next video, with no people images, names no one of theirs.
    const ours = await newVideo(token);
    await analyse(ours, short);
    const scenes = await descriptions(ours);
    expect(scenes.join(' ')).not.toContain('Le Rival');
    // Our own team's people (from the first video) are still known.
    expect(scenes[0]).toContain('Franck Dupont');
    expect(await teamOf(server.ctx, other)).not.toBe(await teamOf(server.ctx, owner));
  }, 480_000);

  const faceRows = async (id: string) => ({
    scenes: (await server.ctx.db.query('SELECT 1 FROM scene_faces WHERE video_id = $1', [id]))
      .length,
    people: (
      await server.ctx.db.query(
        'SELECT 1 FROM video_people WHERE video_id = $1 AND descriptor IS NOT NULL',
        [id],
      )
    ).length,
  });

  it('deletes them with the people images they came from', async () => {
    const id = await newVideo(token);
    await uploadPeople(id, token, [['Franck Dupont', facePhoto('franck_02888.jpg')]]);
    // Described as the analysis would, then the images are replaced before the upload ends.
    await server.ctx.db.query(
      `UPDATE video_people SET faces_found = 1, descriptor = (
         SELECT descriptor FROM video_people WHERE video_id = $2 AND position = 1)
       WHERE video_id = $1`,
      [id, videoId],
    );
    expect((await faceRows(id)).people).toBe(1);
    await uploadPeople(id, token, [['Someone Else', facePhoto('ironman.jpg')]]);
    expect((await faceRows(id)).people).toBe(0);
  });

  it('deletes them with the video', async () => {
    const before = await faceRows(videoId);
    expect(before.scenes).toBeGreaterThanOrEqual(2);
    expect(before.people).toBe(3);
    const res = await server.call('DELETE', `/api/videos/${videoId}`, { token });
    expect(res.status).toBe(200);
    expect(await faceRows(videoId)).toEqual({ scenes: 0, people: 0 });
  });

  it('deletes them with the account', async () => {
    const [{ n } = { n: 0 }] = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scene_faces f JOIN videos v ON v.id = f.video_id
       WHERE v.owner_id = $1`,
      [owner],
    );
    expect(n).toBeGreaterThan(0);
    await server.ctx.db.tx((q) => deleteUserCascade(q, owner));
    const left = await server.ctx.db.query(
      `SELECT 1 FROM scene_faces f WHERE NOT EXISTS (SELECT 1 FROM videos v WHERE v.id = f.video_id)
       UNION ALL SELECT 1 FROM videos WHERE owner_id = $1`,
      [owner],
    );
    expect(left).toHaveLength(0);
  });
});
