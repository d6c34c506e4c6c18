// Who a face is, as 128 numbers: face-api's ResNet-34 on a face box Human's BlazeFace found,
// aligned first by face-api's 68-landmark net as face-api's own pipeline does it
// (docs/decisions/face-descriptor.md). Loaded in the perception thread beside Human, on the same
// tfjs WASM backend (both require the one @tensorflow/tfjs-core), after Human has set it up. The
// Node WASM build is loaded by its file path, like Human's; the weights are read from the
// package's model/ folder (nothing is fetched).
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as FaceApi from '@vladmandic/face-api';
import type { Tensor } from '@vladmandic/human';
import { getHuman, imageTensor } from './human.ts';

const require = createRequire(import.meta.url);
const FACE_API_DIST = path.dirname(require.resolve('@vladmandic/face-api'));
/** The Node WASM build, by its file path (its exports map does not reach it). */
export const FACE_API_BUNDLE = path.join(FACE_API_DIST, 'face-api.node-wasm.js');
const MODEL_DIR = path.join(FACE_API_DIST, '..', 'model');

export type FaceBox = [number, number, number, number];

export interface FaceDescriber {
  /** The descriptor of the face in `box` (x, y, w, h in px) of `image`; undefined if none. */
  describe(image: Tensor, box: FaceBox): Promise<number[] | undefined>;
}

let loading: Promise<FaceDescriber> | undefined;

/**
 * The descriptor of the face in `box` of `input`: landmarks on the box's crop, dlib's alignment as
 * face-api's own pipeline does it (landmarks are in the crop's pixels, the aligned box goes back
 * to the picture's), then ResNet-34. Undefined when no face is there. Disposes what it makes.
 */
export async function describeAligned(
  faceapi: typeof FaceApi,
  input: FaceApi.tf.Tensor3D,
  [x, y, w, h]: FaceBox,
): Promise<number[] | undefined> {
  const tensors: FaceApi.tf.Tensor3D[] = [];
  try {
    const [crop] = await faceapi.extractFaceTensors(input, [new faceapi.Rect(x, y, w, h)]);
    if (!crop) return undefined;
    tensors.push(crop);
    const marks = await faceapi.detectFaceLandmarks(crop);
    const one = Array.isArray(marks) ? marks[0] : marks;
    if (!one) return undefined;
    const a = one.align(null, { useDlibAlignment: true });
    const aligned = new faceapi.Rect(a.x + x, a.y + y, a.width, a.height);
    const [face] = await faceapi.extractFaceTensors(input, [aligned]);
    if (!face) return undefined;
    tensors.push(face);
    const d = await faceapi.computeFaceDescriptor(face);
    const descriptor = Array.isArray(d) ? d[0] : d;
    return descriptor ? [...descriptor] : undefined;
  } finally {
    for (const t of tensors) t.dispose();
  }
}

async function load(): Promise<FaceDescriber> {
  const human = await getHuman();
  const faceapi = require(FACE_API_BUNDLE) as typeof FaceApi;
  await faceapi.nets.faceLandmark68Net.loadFromDisk(MODEL_DIR);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(MODEL_DIR);
  // Human's tensors are of the same tfjs; face-api's typings name its own copy of the class.
  const asFaceApi = (t: Tensor): FaceApi.tf.Tensor3D => t as unknown as FaceApi.tf.Tensor3D;
  const describer: FaceDescriber = {
    describe: (image, box) => describeAligned(faceapi, asFaceApi(image), box),
  };
  // The first call of each net sets up its kernels: paid here, with the load, not by a frame.
  const blank = imageTensor(human, 64, 64, new Uint8Array(64 * 64 * 3));
  try {
    await describer.describe(blank, [8, 8, 48, 48]);
  } finally {
    blank.dispose();
  }
  return describer;
}

/** The thread's describer, nets loaded (the first call loads them and Human, later calls share it). */
export function getFaceDescriber(): Promise<FaceDescriber> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
