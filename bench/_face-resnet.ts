// face-api's face detectors (SSD MobileNet v1, TinyFace) and its ResNet-34 descriptor (128
// numbers), on the tfjs WASM backend of this thread, for the descriptor comparison in
// bench/face-match.ts (issue 30). Weights are read from the package's own model/ folder: nothing
// is fetched. The Node WASM build is loaded by its file path and shares this process's tfjs.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Tf from '@tensorflow/tfjs';
import type * as FaceApi from '@vladmandic/face-api';
import type { RgbImage } from '../server/src/analysis/local/ocr-image.ts';
import { describeAligned } from '../server/src/perception/face-descriptor.ts';

const require = createRequire(import.meta.url);
const DIST = path.dirname(require.resolve('@vladmandic/face-api'));
const MODEL_DIR = path.join(DIST, '..', 'model');
const WASM_DIR = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;

export type Box = [number, number, number, number];
export interface FaceApiFace {
  box: Box;
  descriptor: number[];
}
export type FaceApiDetector = 'ssd' | 'tiny';

export interface FaceApiRunner {
  /** Faces found by one of face-api's detectors, each aligned by 68 landmarks and described. */
  detect(image: RgbImage, detector: FaceApiDetector): Promise<FaceApiFace[]>;
  /** The descriptor of a face found elsewhere (x, y, w, h in px), aligned by 68 landmarks. */
  describeBox(image: RgbImage, box: Box): Promise<number[] | undefined>;
}

export async function loadFaceApi(): Promise<FaceApiRunner> {
  const faceapi = require(path.join(DIST, 'face-api.node-wasm.js')) as typeof FaceApi;
  // The same CommonJS tfjs the build requires (its own tf export is typed as a subset).
  const tf = require('@tensorflow/tfjs') as typeof Tf;
  const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(p: string): void };
  wasm.setWasmPaths(WASM_DIR);
  await tf.setBackend('wasm');
  await tf.ready();
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(MODEL_DIR);
  await faceapi.nets.tinyFaceDetector.loadFromDisk(MODEL_DIR);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(MODEL_DIR);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(MODEL_DIR);

  const tensorOf = (image: RgbImage): FaceApi.tf.Tensor3D =>
    faceapi.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
  const options = (d: FaceApiDetector): FaceApi.FaceDetectionOptions =>
    d === 'ssd'
      ? new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 })
      : new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: 0.5 });

  return {
    async detect(image, detector) {
      const input = tensorOf(image);
      try {
        const found = await faceapi
          .detectAllFaces(input, options(detector))
          .withFaceLandmarks()
          .withFaceDescriptors();
        return found.map((f) => {
          const b = f.detection.box;
          return { box: [b.x, b.y, b.width, b.height], descriptor: [...f.descriptor] };
        });
      } finally {
        input.dispose();
      }
    },
    async describeBox(image, box) {
      const input = tensorOf(image);
      try {
        return await describeAligned(faceapi, input, box);
      } finally {
        input.dispose();
      }
    },
  };
}
