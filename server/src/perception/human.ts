// The one Human instance of the process (@vladmandic/human on the tfjs WASM backend), loaded on
// first use and kept: models load once per process, never from the network. Three traps (see
// STACK.md): the Node WASM build is loaded by its file path (the package's exports map does not
// reach it), wasmPath points at the backend's own dist/ (the default is a CDN), and models are
// read from the package's models/ folder by a load router of our own (Node's fetch cannot read
// file:// URLs).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config, Human, Tensor } from '@vladmandic/human';

const require = createRequire(import.meta.url);
const HUMAN_DIST = path.dirname(require.resolve('@vladmandic/human'));
/** The Node WASM build, by its file path (the first trap above). */
export const HUMAN_BUNDLE = path.join(HUMAN_DIST, 'human.node-wasm.js');
export const MODELS_DIR = path.join(HUMAN_DIST, '..', 'models');
const WASM_DIR = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;
const MODEL_SCHEME = 'file://';

/** Everything off but what we use; each detect() call turns face or object parts on. */
export const BASE_CONFIG: Partial<Config> = {
  backend: 'wasm',
  wasmPath: WASM_DIR,
  modelBasePath: MODEL_SCHEME + MODELS_DIR + path.sep,
  // Frames of different scenes are not consecutive video frames: never reuse a result.
  cacheSensitivity: 0,
  cacheModels: false,
  warmup: 'none',
  debug: false,
  filter: { enabled: false } as Config['filter'],
  face: {
    enabled: true,
    detector: { rotation: false, maxDetected: 8, minConfidence: 0.5, return: false },
    mesh: { enabled: true },
    iris: { enabled: false },
    // FaceRes is not used: faces are described by ResNet-34 (face-descriptor.ts).
    description: { enabled: false },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
    gear: { enabled: false },
  } as Config['face'],
  body: { enabled: false } as Config['body'],
  hand: { enabled: false } as Config['hand'],
  gesture: { enabled: false },
  segmentation: { enabled: false } as Config['segmentation'],
  object: { enabled: true, minConfidence: 0.3, maxDetected: 10 } as Config['object'],
};

interface WeightsGroup {
  paths: string[];
  weights: unknown[];
}

/** tfjs model artifacts from a model.json and its weight files on disk. */
function readModel(file: string): Record<string, unknown> {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    weightsManifest: WeightsGroup[];
  } & Record<string, unknown>;
  const { weightsManifest, ...rest } = json;
  const data = Buffer.concat(
    weightsManifest.flatMap((g) =>
      g.paths.map((p) => fs.readFileSync(path.join(path.dirname(file), p))),
    ),
  );
  return {
    ...rest,
    weightSpecs: weightsManifest.flatMap((g) => g.weights),
    weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
  };
}

type HumanClass = new (config: Partial<Config>) => Human;

let loading: Promise<Human> | undefined;

async function load(): Promise<Human> {
  // CommonJS bundle required by path: see the first trap above.
  const { Human: HumanCtor } = require(HUMAN_BUNDLE) as {
    Human: HumanClass;
  };
  const human = new HumanCtor(BASE_CONFIG);
  const modelsRoot = path.resolve(MODELS_DIR) + path.sep;
  human.tf.io.registerLoadRouter((url: string | string[]) => {
    if (typeof url !== 'string' || !url.startsWith(MODEL_SCHEME)) return null;
    const file = path.resolve(url.slice(MODEL_SCHEME.length));
    // Only the package's own models: nothing else on disk is read through this router.
    if (!file.startsWith(modelsRoot)) return null;
    return { load: () => Promise.resolve(readModel(file)) };
  });
  await human.load();
  await warmUp(human);
  return human;
}

/**
 * One detection on a blank picture with every model we use: the first call of each model pays
 * for setting up its kernels (0.5 to 1 s more in all here), which then happens with the load,
 * once per process, instead of in the first frame's timing.
 */
async function warmUp(human: Human): Promise<void> {
  const blank = imageTensor(human, 64, 64, new Uint8Array(64 * 64 * 3));
  try {
    await human.detect(blank, {
      face: { enabled: true },
      object: { enabled: true },
    } as Partial<Config>);
  } finally {
    blank.dispose();
  }
}

/** The process's Human, models loaded (the first call loads them, later calls share it). */
export function getHuman(): Promise<Human> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** An RGB image as the int32 tensor Human reads; the caller disposes of it. */
export function imageTensor(human: Human, width: number, height: number, rgb: Uint8Array): Tensor {
  return human.tf.tensor3d(rgb, [height, width, 3], 'int32') as Tensor;
}
