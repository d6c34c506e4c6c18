// Scenes looked at during the cut give what the perceive step's own look gives, each in its
// place; what the cut could not look at (a frame gone, a second decode of the video) is looked at
// again. Real photos of real people, real ffmpeg and the real models.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../server/src/media/run.ts';
import { facePhoto } from '../support/face-photos.ts';
import {
  PerceiveAhead,
  perceiveAllScenes,
  type OfferedScene,
} from '../../server/src/perception/perceive-ahead.ts';
import { perceiveScenes } from '../../server/src/perception/perceive-scenes.ts';
import { closePerception } from '../../server/src/perception/thread.ts';

const ffmpeg = 'ffmpeg';
let dir: string;
let scenes: OfferedScene[];

/** A photo fitted into a 640x360 frame, as the scene cut stores them. */
async function frame(photo: string, out: string): Promise<string> {
  const fit = 'scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2';
  await runProcess(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-i',
    photo,
    '-vf',
    `${fit},setsar=1,format=yuvj420p`,
    '-q:v',
    '3',
    out,
  ]);
  return out;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-ahead-'));
  const photos = [
    'franck_01829.jpg',
    'cage.jpg',
    'audrey.jpg',
    'SeanConnery.jpg',
    'obama4_crop.jpg',
  ];
  const frames = await Promise.all(
    photos.map((p, i) => frame(facePhoto(p), path.join(dir, `${i}.jpg`))),
  );
  // Five scenes of two frames each: a photo and the next one.
  scenes = frames.map((f, i) => ({
    startMs: i * 4000,
    endMs: (i + 1) * 4000,
    framePaths: [f, frames[(i + 1) % frames.length]!],
  }));
});

afterAll(async () => {
  await closePerception();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('looking at scenes during the cut', { timeout: 180_000 }, () => {
  it('finds in each scene what the step finds, whichever look saw it', async () => {
    const reference = await perceiveScenes(scenes, {});
    expect(reference.scenes.every((s) => s.faces.some((f) => f.length === 1))).toBe(true);

    const ahead = new PerceiveAhead({});
    // The first three settle during the cut, each while the models are free; the fourth is
    // offered while they look at the third and is still waiting when the cut ends (left to the
    // step); the fifth never is (the last scene).
    for (const scene of scenes.slice(0, 2)) {
      ahead.offer(scene);
      await ahead.idle();
    }
    ahead.offer(scenes[2]!);
    ahead.offer(scenes[3]!);
    ahead.stopOffers();
    const seen = await perceiveAllScenes(ahead, scenes, {});

    expect(seen.aheadScenes).toBe(3);
    expect(seen.scenes).toEqual(reference.scenes);
    expect(seen.stats.frames).toBe(reference.stats.frames);
  });

  it('looks again where the cut could not, and forgets what an earlier decode settled', async () => {
    const reference = await perceiveScenes(scenes, {});

    // A frame removed before the models read it (a failed job's folder): that scene is looked at
    // again by the step, the others are taken from the cut's look.
    const gone = path.join(dir, 'gone.jpg');
    fs.copyFileSync(scenes[0]!.framePaths[0]!, gone);
    const ahead = new PerceiveAhead({});
    const broken = scenes.map((s, i) => (i === 1 ? { ...s, framePaths: [gone, gone] } : s));
    fs.rmSync(gone);
    for (const scene of broken.slice(0, 3)) {
      ahead.offer(scene);
      await ahead.idle();
    }
    ahead.stopOffers();
    const seen = await perceiveAllScenes(ahead, scenes.slice(0, 3), {});
    expect(seen.aheadScenes).toBe(2);
    expect(seen.scenes).toEqual(reference.scenes.slice(0, 3));

    // Offers of a first decode, then the video decoded again: nothing of the first is taken.
    const again = new PerceiveAhead({});
    for (const scene of scenes.slice(0, 3)) again.offer(scene);
    again.restart(2);
    again.stopOffers();
    await again.idle();
    expect(again.take(scenes[0]!.startMs, scenes[0]!.endMs, 2)).toBeUndefined();
  });
});
