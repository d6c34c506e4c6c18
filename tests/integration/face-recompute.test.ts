// An archive analysed before the descriptor switch (issue 30): its faces carry only FaceRes
// embeddings, never compared with the new descriptors. The recompute job describes them again
// from the stored frames and people images, through the real models and the job queue, on the
// real (embedded) database; the people are then assigned as after an analysis. Queued once per
// video however often it is asked for, and a second run changes nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFaceRecompute } from '../../server/src/faces/recompute.ts';
import { outputKey } from '../../server/src/pipeline/step-context.ts';
import { replaceScenes, type SceneInsert } from '../../server/src/pipeline/video-store.ts';
import { recomputeJobs, recomputeSettled } from '../support/face-jobs.ts';
import { AIRPLANE_PHOTO, facePhoto } from '../support/face-photos.ts';
import { photoFrame } from '../support/photo-scenes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo } from '../support/videos.ts';

let server: TestServer;
let videoId: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-recompute-'));
/** A FaceRes embedding as migration 010 stored them (1024 numbers). */
const OLD = Array.from({ length: 1024 }, (_, i) => Math.sin(i) / 16);

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({ email: 'old@example.com', password: 'password1' });
  const token = await server.login('old@example.com', 'password1');
  videoId = (await createVideo(server, token, { filename: 'old.mp4' })).id;
  // Scenes: Franck on two frames, Cage, and a jet over a lake (no face: never looked at again).
  const photos = [
    ['franck_01829.jpg', 'franck_02045.jpg'],
    ['cage.jpg', 'cage.jpg'],
    [AIRPLANE_PHOTO, AIRPLANE_PHOTO],
  ];
  const scenes: SceneInsert[] = [];
  for (const [idx, files] of photos.entries()) {
    const frames: string[] = [];
    for (const [n, file] of files.entries()) {
      const key = outputKey(videoId, 'scenes', String(idx), `frame-0${n + 1}.jpg`);
      const photo = file.startsWith('/') ? file : facePhoto(file);
      await server.ctx.storage.put(key, await photoFrame(photo, path.join(tmp, `${idx}-${n}.jpg`)));
      frames.push(key);
    }
    scenes.push({
      idx,
      start_ms: idx * 4000,
      end_ms: idx * 4000 + 4000,
      thumbnail_key: null,
      frames,
    });
  }
  await server.ctx.db.tx((q) => replaceScenes(q, videoId, scenes));
  const imageKey = `input/${videoId}/people/1.jpg`;
  await server.ctx.storage.put(imageKey, fs.readFileSync(facePhoto('franck_02888.jpg')));
  await server.ctx.db.query(
    `INSERT INTO video_people (video_id, position, name, image_key, faces_found, face_embedding)
     VALUES ($1, 1, 'Franck Dupont', $2, 1, $3::real[])`,
    [videoId, imageKey, OLD],
  );
  // The old analysis's faces: one in each of the first two scenes, Franck named.
  for (const [idx, name] of [
    [0, 'Franck Dupont'],
    [1, null],
  ] as const) {
    await server.ctx.db.query(
      `INSERT INTO scene_faces (video_id, scene_idx, face_idx, embedding, person_name, similarity)
       VALUES ($1, $2, 0, $3::real[], $4, 0.8)`,
      [videoId, idx, OLD, name],
    );
  }
  await server.ctx.db.query(`UPDATE videos SET status = 'completed' WHERE id = $1`, [videoId]);
}, 300_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('recomputing faces stored before the descriptor switch', { timeout: 300_000 }, () => {
  it('queues one job per video, however many workers ask at once', async () => {
    const asked = await Promise.all([
      queueFaceRecompute(server.ctx),
      queueFaceRecompute(server.ctx),
    ]);
    expect(asked[0]! + asked[1]!).toBe(1);
    expect(await recomputeJobs(server, videoId)).toHaveLength(1);
  });

  it('describes the faces again from the stored pictures and assigns the people', async () => {
    await recomputeSettled(server, videoId);
    expect(await recomputeJobs(server, videoId)).toEqual([{ state: 'done' }]);
    const faces = await server.ctx.db.query<{
      scene_idx: number;
      dims: number;
      embedding: number[] | null;
      frame_idx: number;
      crop_key: string | null;
      person_name: string | null;
      person_id: string | null;
    }>(
      `SELECT scene_idx, vector_dims(descriptor) AS dims, embedding, frame_idx, crop_key,
              person_name, person_id
       FROM scene_faces WHERE video_id = $1 ORDER BY scene_idx, face_idx`,
      [videoId],
    );
    expect(faces.map((f) => [f.scene_idx, f.dims, f.embedding])).toEqual([
      [0, 128, null],
      [1, 128, null],
    ]);
    for (const f of faces) {
      expect([0, 1]).toContain(f.frame_idx);
      expect(f.crop_key).toMatch(
        new RegExp(`^output/${videoId}/scenes/${f.scene_idx}/face-01\\.jpg$`),
      );
      expect(await server.ctx.storage.stat(f.crop_key!)).toBeTruthy();
    }
    // Franck, named by his people image (another photo of him), is found; Cage is nobody named.
    expect(faces[0]).toMatchObject({ person_name: 'Franck Dupont' });
    expect(faces[0]!.person_id).not.toBeNull();
    expect(faces[1]!.person_name).toBeNull();
    const [person] = await server.ctx.db.query<{ dims: number; face_embedding: number[] | null }>(
      `SELECT vector_dims(descriptor) AS dims, face_embedding FROM video_people WHERE video_id = $1`,
      [videoId],
    );
    expect(person).toEqual({ dims: 128, face_embedding: null });
  });

  it('has nothing left to do afterwards', async () => {
    const before = await server.ctx.db.query('SELECT id, crop_key FROM scene_faces ORDER BY id');
    expect(await queueFaceRecompute(server.ctx)).toBe(0);
    expect(await recomputeJobs(server, videoId)).toEqual([{ state: 'done' }]);
    expect(await server.ctx.db.query('SELECT id, crop_key FROM scene_faces ORDER BY id')).toEqual(
      before,
    );
  });
});
