// Who a face is, as 128 numbers: face-api's ResNet-34 on a face Human's BlazeFace found, aligned
// first by face-api's 68-landmark net the way dlib aligns faces (docs/decisions/face-descriptor.md),
// with the squares of face-align.ts: around the face mesh, never moved by the picture's edge,
// zero beyond it, scaled down by area averaging, and the mirror image described too
// (docs/decisions/face-at-any-size.md). Loaded in the perception thread beside Human, on the same
// tfjs WASM backend (both require the one @tensorflow/tfjs-core), after Human has set it up. The
// Node WASM build is loaded by its file path, like Human's; the weights are read from the
// package's model/ folder (nothing is fetched).
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as FaceApi from '@vladmandic/face-api';
import type { Tensor } from '@vladmandic/human';
import { dlibSquare, landmarkSquare, type Square } from './face-align.ts';
import { getHuman, imageTensor } from './human.ts';

const require = createRequire(import.meta.url);
const FACE_API_DIST = path.dirname(require.resolve('@vladmandic/face-api'));
/** The Node WASM build, by its file path (its exports map does not reach it). */
export const FACE_API_BUNDLE = path.join(FACE_API_DIST, 'face-api.node-wasm.js');
const MODEL_DIR = path.join(FACE_API_DIST, '..', 'model');

export type FaceBox = [number, number, number, number];
/** Human's face mesh: [x, y, z] in the picture's pixels. */
export type FaceMesh = readonly (readonly (number | undefined)[])[];

/** The sides the 68-landmark net and ResNet-34 take their input at. */
const LANDMARK_PX = 112;
const RESNET_PX = 150;

export interface FaceDescriber {
  /** The descriptor of the face in `box` (x, y, w, h in px) of `image`; undefined if none. */
  describe(image: Tensor, box: FaceBox, mesh?: FaceMesh): Promise<number[] | undefined>;
}

let loading: Promise<FaceDescriber> | undefined;

type Tf = typeof FaceApi.tf;
type Tensor3D = FaceApi.tf.Tensor3D;

/**
 * The square of `input` at `size` px a side: zero where it is beyond the picture (the face keeps
 * its place in the square), area-averaged by a whole factor first when much larger (bilinear
 * alone skips pixels, so a large photo and a small frame of one face would differ), then
 * bilinear. Undefined when the square misses the picture.
 */
export function squareTensor(
  tf: Tf,
  input: Tensor3D,
  sq: Square,
  size: number,
): Tensor3D | undefined {
  const [height, width] = input.shape;
  if (!Number.isFinite(sq.x + sq.y + sq.side)) return undefined;
  const [x, y, side] = [Math.round(sq.x), Math.round(sq.y), Math.max(1, Math.round(sq.side))];
  const [x0, y0] = [Math.max(0, x), Math.max(0, y)];
  const [x1, y1] = [Math.min(width, x + side), Math.min(height, y + side)];
  if (x1 <= x0 || y1 <= y0) return undefined;
  return tf.tidy(() => {
    const inside = tf.slice3d(input, [y0, x0, 0], [y1 - y0, x1 - x0, 3]);
    const pad: [number, number][] = [
      [y0 - y, y + side - y1],
      [x0 - x, x + side - x1],
      [0, 0],
    ];
    let batch = tf.expandDims(tf.cast(tf.pad(inside, pad), 'float32'), 0) as FaceApi.tf.Tensor4D;
    const factor = Math.floor(side / size);
    if (factor >= 2) batch = tf.avgPool(batch, factor, factor, 'valid');
    const out = tf.image.resizeBilinear(batch, [size, size]);
    return tf.reshape(out, [size, size, 3]) as Tensor3D;
  });
}

/**
 * The descriptor of the face in `box` of `input`: 68 landmarks in the square around its mesh,
 * dlib's square from them, then ResNet-34 on that square and on its mirror image, averaged (a
 * landmark a pixel off moves the two the opposite way). Undefined when no face is there.
 * Disposes what it makes.
 */
export async function describeAligned(
  faceapi: typeof FaceApi,
  input: Tensor3D,
  box: FaceBox,
  mesh?: FaceMesh,
): Promise<number[] | undefined> {
  const tf = faceapi.tf;
  const tensors: FaceApi.tf.Tensor[] = [];
  try {
    const around = landmarkSquare(mesh, box);
    const crop = squareTensor(tf, input, around, LANDMARK_PX);
    if (!crop) return undefined;
    tensors.push(crop);
    const marks = await faceapi.detectFaceLandmarks(crop);
    const one = Array.isArray(marks) ? marks[0] : marks;
    if (!one) return undefined;
    const k = around.side / LANDMARK_PX;
    const sq = dlibSquare(
      one.positions.map((p) => ({ x: around.x + p.x * k, y: around.y + p.y * k })),
    );
    const face = squareTensor(tf, input, sq, RESNET_PX);
    if (!face) return undefined;
    tensors.push(face);
    const mirror = tf.tidy(() => {
      const flipped = tf.image.flipLeftRight(tf.expandDims(face, 0) as FaceApi.tf.Tensor4D);
      return tf.reshape(flipped, face.shape) as Tensor3D;
    });
    tensors.push(mirror);
    // The face and its mirror image in one pass of the net.
    const both = await faceapi.computeFaceDescriptor([face, mirror]);
    const [a, b] = Array.isArray(both) ? both : [];
    return a && b ? Array.from(a, (v, i) => (v + b[i]!) / 2) : undefined;
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
  const asFaceApi = (t: Tensor): Tensor3D => t as unknown as Tensor3D;
  const describer: FaceDescriber = {
    describe: (image, box, mesh) => describeAligned(faceapi, asFaceApi(image), box, mesh),
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
