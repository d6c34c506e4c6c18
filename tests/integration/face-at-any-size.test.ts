// Issue 43: a person named at upload with one photo is found where the video shows another photo
// of him, whatever size, place or compression the video gives it, as long as the two photos are
// within the same-person distance. Real ffmpeg, the real analysis (scene cut, kept frames,
// BlazeFace, landmarks, ResNet-34) and the real people images; nothing mocked. Before the fix,
// Justin Bieber's photo zooming at 420 px on a 960x540 frame and Nicolas Cage's in compressed
// frames were not named (0.54 and 0.56 from their references, the photos 0.40 and 0.44 apart).
// Sean Connery's half-length portrait 120 px tall is a face of about 35 px in the 640 px frames
// the analysis keeps: named only when the small face is looked at in the video at full size
// (perception/source-look.ts; from the frame alone 0.518 from his reference, the photos 0.374
// apart).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_SAME_DISTANCE, faceDistance } from '../../server/src/perception/face-match.ts';
import { decodePicture } from '../../server/src/perception/picture.ts';
import { perceiveImage } from '../../server/src/perception/thread.ts';
import { facePhoto } from '../support/face-photos.ts';
import { analyseUploaded, uploadPeopleImages } from '../support/people-images.ts';
import { makePhotoScenesVideo } from '../support/photo-scenes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo } from '../support/videos.ts';

let server: TestServer;
let token: string;
let videoId: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-any-size-'));

/** Named at upload with one photo; shown in the video in another. */
const BIEBER = { named: 'Justin-Bieber2_crop.jpg', shown: 'bieber_small.jpg' };
const CAGE = { named: 'cage2_crop.jpg', shown: 'cage.jpg' };
const CONNERY = { named: 'sean_guru2_crop.jpg', shown: 'SeanConnery.jpg' };

async function descriptor(file: string): Promise<number[]> {
  const image = await decodePicture('ffmpeg', facePhoto(file));
  const seen = await perceiveImage(image, { faces: true, objects: false });
  expect(seen.faces, file).toHaveLength(1);
  return seen.faces[0]!.descriptor;
}

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({ email: 'sizes@example.com', password: 'password1' });
  token = await server.login('sizes@example.com', 'password1');
  const video = await makePhotoScenesVideo(
    [
      { photo: facePhoto(BIEBER.shown), shot: 'zoom' },
      { photo: facePhoto(CAGE.shown), shot: 'compressed' },
      { photo: facePhoto('obama4_crop.jpg'), shot: 'off-centre' },
      { photo: facePhoto(CONNERY.shown), shot: 'small' },
    ],
    path.join(tmp, 'photos.mp4'),
  );
  videoId = (await createVideo(server, token, { filename: 'photos.mp4', video_length: 16 })).id;
  await uploadPeopleImages(server, videoId, token, [
    ['Justin Bieber', facePhoto(BIEBER.named)],
    ['Nicolas Cage', facePhoto(CAGE.named)],
    ['Sean Connery', facePhoto(CONNERY.named)],
  ]);
  await analyseUploaded(server, videoId, fs.readFileSync(video));
}, 240_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a person named with one photo, shown in a video in another', () => {
  it('is named where the photos themselves are within the same-person distance', async () => {
    for (const { named, shown } of [BIEBER, CAGE, CONNERY]) {
      const apart = faceDistance(await descriptor(named), await descriptor(shown));
      expect(apart, `${named} / ${shown}`).toBeLessThanOrEqual(FACE_SAME_DISTANCE);
    }
  });

  it('is found zooming at 420 px on a 960x540 frame, in compressed frames and 120 px tall in a corner; a stranger is not named', async () => {
    const res = await server.call('GET', `/api/videos/${videoId}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.people).toEqual([
      { name: 'Justin Bieber', scenes: [0], face_found: 'one' },
      { name: 'Nicolas Cage', scenes: [1], face_found: 'one' },
      { name: 'Sean Connery', scenes: [3], face_found: 'one' },
    ]);
    const scenes = await server.ctx.db.query<{ description: string }>(
      'SELECT description FROM scenes WHERE video_id = $1 ORDER BY idx',
      [videoId],
    );
    expect(scenes).toHaveLength(4);
    expect(scenes[0]!.description).toContain('Justin Bieber is in the picture.');
    expect(scenes[1]!.description).toContain('Nicolas Cage is in the picture.');
    expect(scenes[2]!.description).toContain('One person is in the picture.');
    expect(scenes[2]!.description).not.toMatch(/Bieber|Cage|Connery/);
    expect(scenes[3]!.description).toContain('Sean Connery is in the picture.');
    // His small face was looked at in the video at full size (the other faces are large).
    const [perceived] = await server.ctx.db.query<{ frames: number }>(
      `SELECT (data ->> 'sourceFrames')::int AS frames FROM pipeline_steps
       WHERE video_id = $1 AND step = 'perceive'`,
      [videoId],
    );
    expect(perceived!.frames).toBeGreaterThan(0);
  });
});
