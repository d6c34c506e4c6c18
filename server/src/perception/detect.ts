// What one picture shows: faces (found by Human's BlazeFace, each described by face-api's
// ResNet-34: face-descriptor.ts) and COCO objects. One call per picture on this thread's models;
// the caller says which to run, so a frame without faces costs only the face detector. Runs in
// the perception thread (thread.ts), never on the server's own thread.
import type { Config } from '@vladmandic/human';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { getFaceDescriber } from './face-descriptor.ts';
import { getHuman, imageTensor } from './human.ts';

export interface FaceFinding {
  /** x, y, width, height in pixels of the picture. */
  box: [number, number, number, number];
  /** Detector confidence, 0..1. */
  score: number;
  /** 128 numbers (ResNet-34); empty when the face was too small to describe. */
  descriptor: number[];
}

export interface ObjectFinding {
  /** COCO class name, English, as the model names it ("cell phone"). */
  label: string;
  score: number;
}

export interface Perception {
  faces: FaceFinding[];
  objects: ObjectFinding[];
  /** Milliseconds spent in each model family (wall time of its own detect call). */
  ms: { face: number; object: number };
  /** The picture's size (px): boxes are in its pixels. */
  width: number;
  height: number;
}

/** Faces smaller than this (px, the box's shorter side) are counted but not described. */
export const MIN_DESCRIBED_FACE_PX = 40;
/** A detection below this is not a face (BlazeFace scores pictures of patterns at ~0.5). */
export const MIN_FACE_SCORE = 0.6;

export interface PerceiveWhat {
  faces: boolean;
  objects: boolean;
}

export async function perceiveOnThisThread(
  image: RgbImage,
  what: PerceiveWhat,
): Promise<Perception> {
  const h = await getHuman();
  const describer = what.faces ? await getFaceDescriber() : undefined;
  const input = imageTensor(h, image.width, image.height, image.data);
  // One model family per call, so each is timed on its own (Human reports only totals).
  const run = async (face: boolean, object: boolean) => {
    const started = performance.now();
    const config = { face: { enabled: face }, object: { enabled: object } } as Partial<Config>;
    const result = await h.detect(input, config);
    if (result.error) throw new Error(`perception failed: ${result.error}`);
    return { result, ms: performance.now() - started };
  };
  try {
    const face = what.faces ? await run(true, false) : undefined;
    const describing = performance.now();
    const faces: FaceFinding[] = [];
    for (const f of face?.result.face ?? []) {
      const score = f.boxScore ?? f.score;
      if (score < MIN_FACE_SCORE) continue;
      const box = f.box.map((v) => Math.round(v)) as [number, number, number, number];
      const described = Math.min(box[2], box[3]) >= MIN_DESCRIBED_FACE_PX;
      const descriptor = described ? await describer!.describe(input, box, f.mesh) : undefined;
      faces.push({ box, score, descriptor: descriptor ?? [] });
    }
    // The face models' time: the detector's call and the descriptions.
    const faceMs = face ? face.ms + performance.now() - describing : 0;
    const object = what.objects ? await run(false, true) : undefined;
    return {
      faces,
      objects: (object?.result.object ?? []).map((o) => ({ label: o.label, score: o.score })),
      ms: { face: faceMs, object: object?.ms ?? 0 },
      width: image.width,
      height: image.height,
    };
  } finally {
    input.dispose();
  }
}
