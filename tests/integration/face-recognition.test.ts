// Issue 30's acceptance: a person named with one photo is found in other photos of them taken
// years apart, and nobody else is named. Through the product's perception (BlazeFace, landmark
// alignment, ResNet-34 in the perception thread) and its matcher, on real pictures: Sean Connery
// young and in costume decades later, Audrey Hepburn, Nicolas Cage and Justin Bieber in photos of
// different years, and the webcam man named with a frame of one recording, found in another he
// made at another time. With FaceRes (before the switch) Connery's two photos were at cosine
// 0.56, under any threshold that kept strangers apart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchFace, type PersonReference } from '../../server/src/perception/face-match.ts';
import { decodePicture } from '../../server/src/perception/picture.ts';
import { closePerception, perceiveImage } from '../../server/src/perception/thread.ts';
import { facePhoto, frameOf, WEBCAM_VIDEOS } from '../support/face-photos.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-recognise-'));

/** The one described face of a picture. */
async function describe1(file: string): Promise<number[]> {
  const seen = await perceiveImage(await decodePicture('ffmpeg', file), {
    faces: true,
    objects: false,
  });
  const faces = seen.faces.filter((f) => f.descriptor.length > 0);
  expect(faces, file).toHaveLength(1);
  return faces[0]!.descriptor;
}

/** Each person: the photo they are named with, then the other photos they must be found in. */
const PEOPLE: Record<string, string[]> = {
  'Sean Connery': ['SeanConnery.jpg', 'sean_guru2_crop.jpg'],
  'Audrey Hepburn': ['audrey.jpg', 'audrey_crop.jpg'],
  'Nicolas Cage': ['cage.jpg', 'cage2_crop.jpg'],
  'Justin Bieber': ['bieber_small.jpg', 'Justin-Bieber2_crop.jpg'],
  Franck: ['franck_01829.jpg', 'franck_04117.jpg'],
};
/** Never named: nobody uploaded them. */
const STRANGERS = ['obama4_crop.jpg', 'terminator_crop.jpg', 'walter2_crop.jpg', 'chuck_crop.jpg'];

const gallery: PersonReference[] = [];
const probes: { person: string; file: string; descriptor: number[] }[] = [];

beforeAll(async () => {
  for (const [name, [named, ...others]] of Object.entries(PEOPLE)) {
    gallery.push({ name, descriptor: await describe1(facePhoto(named!)) });
    for (const file of others) {
      probes.push({ person: name, file, descriptor: await describe1(facePhoto(file)) });
    }
  }
  // The webcam man, named with a frame of his second recording, seen in his first.
  const named = await frameOf(WEBCAM_VIDEOS[1]!, 25, path.join(tmp, 'named.jpg'));
  gallery.push({ name: 'Webcam man', descriptor: await describe1(named) });
  for (const t of [5, 45]) {
    const file = await frameOf(WEBCAM_VIDEOS[0]!, t, path.join(tmp, `seen-${t}.jpg`));
    probes.push({ person: 'Webcam man', file, descriptor: await describe1(file) });
  }
}, 300_000);

afterAll(async () => {
  await closePerception();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a person named with one photo', () => {
  it('is found in their other photos, taken years apart', () => {
    const found = probes.map((p) => [p.file, matchFace(p.descriptor, gallery)?.name]);
    expect(found).toEqual(probes.map((p) => [p.file, p.person]));
  });

  it('names nobody in the photos of people never named', async () => {
    for (const file of STRANGERS) {
      expect(matchFace(await describe1(facePhoto(file)), gallery), file).toBeUndefined();
    }
  }, 120_000);
});
