// Faces stored before the alignment of issue 43 (descriptor version 1, migration 019) are
// described again in the background, and every correction people made stays: a group named, a
// group merged into a person (even one the faces would not put there), a face taken from a person
// ("not this person"). Real frames, the real models, the real job queue and the People API on
// the real (embedded) database; the old descriptors are today's shifted by one fixed offset, as an
// alignment change shifts them (the faces keep their distances, so they group as they would).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_DESCRIPTOR_VERSION } from '../../server/src/faces/descriptor-version.ts';
import { queueFaceRecompute } from '../../server/src/faces/recompute.ts';
import { assignVideoFaces } from '../../server/src/people/assign.ts';
import { faceDistance } from '../../server/src/perception/face-match.ts';
import { decodePicture } from '../../server/src/perception/picture.ts';
import { perceiveFile, perceiveImage } from '../../server/src/perception/thread.ts';
import { outputKey } from '../../server/src/pipeline/step-context.ts';
import { replaceScenes, type SceneInsert } from '../../server/src/pipeline/video-store.ts';
import { vectorText } from '../../server/src/repositories/faces.ts';
import { recomputeJobs, recomputeSettled } from '../support/face-jobs.ts';
import { facePhoto } from '../support/face-photos.ts';
import { photoFrame } from '../support/photo-scenes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo } from '../support/videos.ts';

let server: TestServer;
let token: string;
let videoId: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-redescribe-'));
/** Scene i shows this photo (on one frame). */
const SHOWN = ['franck_01829.jpg', 'cage.jpg', 'franck_02045.jpg', 'Justin-Bieber2_crop.jpg'];
/** Today's descriptor of each scene's face. */
const today: number[][] = [];
/** An older alignment's descriptor: today's, shifted by one fixed offset (0.2 away). */
const old = (d: readonly number[]): number[] => d.map((v, i) => (i === 0 ? v + 0.2 : v));

type Face = {
  id: string;
  scene_idx: number;
  person_id: string | null;
  person_name: string | null;
  descriptor_version: number;
  descriptor: number[];
};

const faces = () =>
  server.ctx.db.query<Face>(
    `SELECT id::text AS id, scene_idx, person_id, person_name, descriptor_version,
            descriptor::real[] AS descriptor
     FROM scene_faces WHERE video_id = $1 ORDER BY scene_idx`,
    [videoId],
  );
const people = () =>
  server.ctx.db.query<{ id: string; name: string | null }>(
    'SELECT id, name FROM people ORDER BY id',
  );
const rejections = () =>
  server.ctx.db.query<{ face_id: string; person_id: string }>(
    'SELECT face_id::text AS face_id, person_id FROM face_rejections ORDER BY face_id',
  );

let before: { faces: Face[]; people: { id: string; name: string | null }[] };

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({ email: 'aligned@example.com', password: 'password1' });
  token = await server.login('aligned@example.com', 'password1');
  videoId = (await createVideo(server, token, { filename: 'old.mp4' })).id;
  const scenes: SceneInsert[] = [];
  for (const [idx, photo] of SHOWN.entries()) {
    const key = outputKey(videoId, 'scenes', String(idx), 'frame-01.jpg');
    const file = path.join(tmp, `${idx}.jpg`);
    await server.ctx.storage.put(key, await photoFrame(facePhoto(photo), file));
    scenes.push({
      idx,
      start_ms: idx * 4000,
      end_ms: idx * 4000 + 4000,
      thumbnail_key: null,
      frames: [key],
    });
    const seen = await perceiveFile(file, { faces: true, objects: false });
    expect(seen.faces, photo).toHaveLength(1);
    const [face] = seen.faces;
    today.push(face!.descriptor);
    await server.ctx.db.query(
      `INSERT INTO scene_faces
         (video_id, scene_idx, face_idx, descriptor, frame_idx, box, descriptor_version)
       VALUES ($1, $2, 0, $3::vector, 0, $4::real[], 1)`,
      [videoId, idx, vectorText(old(face!.descriptor)), face!.box],
    );
  }
  await server.ctx.db.tx((q) => replaceScenes(q, videoId, scenes));
  // Franck's people image, described the old way too.
  const imageKey = `input/${videoId}/people/1.jpg`;
  const franckImage = facePhoto('franck_02888.jpg');
  await server.ctx.storage.put(imageKey, fs.readFileSync(franckImage));
  const image = await perceiveImage(await decodePicture('ffmpeg', franckImage), {
    faces: true,
    objects: false,
  });
  await server.ctx.db.query(
    `INSERT INTO video_people (video_id, position, name, image_key, faces_found, descriptor,
                               descriptor_version)
     VALUES ($1, 1, 'Franck Dupont', $2, 1, $3::vector, 1)`,
    [videoId, imageKey, vectorText(old(image.faces[0]!.descriptor))],
  );
  await server.ctx.db.query(`UPDATE videos SET status = 'completed' WHERE id = $1`, [videoId]);
  await assignVideoFaces(server.ctx.db, videoId);

  // The corrections: Cage's group named, Bieber's group merged into him (a person's own
  // choice, which no face distance would make), Franck's second face taken from Franck.
  const [franck, cage, franck2, bieber] = await faces();
  expect(franck!.person_name).toBe('Franck Dupont');
  expect(franck2!.person_id).toBe(franck!.person_id);
  expect(new Set([franck!.person_id, cage!.person_id, bieber!.person_id]).size).toBe(3);
  const call = async (method: string, url: string, body?: object) => {
    const res = await server.call(method, url, { token, ...(body && { body }) });
    expect(res.status, `${method} ${url}`).toBeLessThan(300);
  };
  await call('PATCH', `/api/people/${cage!.person_id}`, { name: 'Nicolas Cage' });
  await call('POST', `/api/people/${bieber!.person_id}/merge`, { into: cage!.person_id });
  await call('POST', `/api/people/${franck!.person_id}/faces/${franck2!.id}/reject`);
  before = { faces: await faces(), people: await people() };
}, 300_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('faces of an older descriptor version, corrected by people', { timeout: 300_000 }, () => {
  it('are described again in place by the recompute job', async () => {
    expect(await queueFaceRecompute(server.ctx)).toBe(1);
    await recomputeSettled(server, videoId);
    expect(await recomputeJobs(server, videoId)).toEqual([{ state: 'done' }]);
    const after = await faces();
    expect(after.map((f) => f.id)).toEqual(before.faces.map((f) => f.id));
    for (const [i, f] of after.entries()) {
      expect(f.descriptor_version).toBe(FACE_DESCRIPTOR_VERSION);
      // Today's descriptor, no longer the old one.
      expect(faceDistance(f.descriptor, today[i]!), SHOWN[i]).toBeLessThan(1e-3);
      expect(faceDistance(f.descriptor, old(today[i]!))).toBeGreaterThan(0.19);
    }
    // The nearest-faces index holds the new descriptors.
    const vectors = await server.ctx.db.query<{ face_id: string; descriptor: number[] }>(
      `SELECT face_id::text AS face_id, descriptor::real[] AS descriptor FROM face_vectors
       WHERE video_id = $1 ORDER BY face_id`,
      [videoId],
    );
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      const face = after.find((f) => f.id === v.face_id)!;
      expect(faceDistance(v.descriptor, face.descriptor)).toBeLessThan(1e-5);
    }
    const [image] = await server.ctx.db.query<{ descriptor_version: number; person_id: string }>(
      'SELECT descriptor_version, person_id FROM video_people WHERE video_id = $1',
      [videoId],
    );
    expect(image).toEqual({
      descriptor_version: FACE_DESCRIPTOR_VERSION,
      person_id: before.faces[0]!.person_id,
    });
  });

  it('keeps every correction: names, the merge, the face taken from a person', async () => {
    const after = await faces();
    const [franck, cage, franck2, bieber] = after;
    for (const i of [0, 1, 3]) {
      expect(after[i]).toMatchObject({
        person_id: before.faces[i]!.person_id,
        person_name: before.faces[i]!.person_name,
      });
    }
    expect(cage!.person_name).toBe('Nicolas Cage');
    expect(bieber!.person_id).toBe(cage!.person_id);
    // Not given back to Franck, and the "not this person" stays.
    expect(franck2!.person_id).not.toBe(franck!.person_id);
    expect(franck2!.person_name).toBeNull();
    expect(await rejections()).toEqual([{ face_id: franck2!.id, person_id: franck!.person_id }]);
    // No person was removed or renamed (the taken face may have started a group of its own).
    const now = await people();
    for (const p of before.people) expect(now).toContainEqual(p);
  });

  it('has nothing left to do afterwards', async () => {
    expect(await queueFaceRecompute(server.ctx)).toBe(0);
  });
});
