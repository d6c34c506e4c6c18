// Perception runs in one worker thread of the process. A frame costs 150-700 ms of synchronous
// WASM, and on the server's own thread (WORKER=inline, the default) that held every API request
// for as long, frame after frame, while a video with people was analysed (issue 14: analysis
// must not starve requests). The thread loads the models on its first picture (or earlier when
// asked: loadPerception) and keeps them while pictures come; after MODELS_IDLE_UNLOAD_S with none
// it ends, and its memory goes with it (thread-idle.ts); the next picture starts a new one. Idle,
// it does not keep the process alive. If it dies, the pictures it held fail and the next one
// starts a new thread.
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { IdleThread } from '../lib/idle-thread.ts';
import { tsWorker } from '../lib/ts-worker.ts';
import type { Perception, PerceiveWhat } from './detect.ts';
import { FACE_API_BUNDLE } from './face-descriptor.ts';
import { HUMAN_BUNDLE } from './human.ts';
import type { CropTask, LoadTask, PerceiveFileTask, PerceiveTask } from './thread-worker.ts';

const thread = new IdleThread('perception', () =>
  tsWorker(new URL('./thread-worker.ts', import.meta.url), {
    preload: [HUMAN_BUNDLE, FACE_API_BUNDLE],
  }),
);

/** Faces and objects of one picture, looked at in the perception thread. */
export function perceiveImage(image: RgbImage, what: PerceiveWhat): Promise<Perception> {
  // A copy of the pixels is moved to the thread (the caller's buffer may be a view of a larger one).
  const data = new Uint8Array(image.data);
  const task: Omit<PerceiveTask, 'id'> = {
    image: { width: image.width, height: image.height, data },
    what,
  };
  return thread.call<Perception>(task, [data.buffer]);
}

/**
 * Faces and objects of one JPEG frame image, decoded in the thread as well (3-6 ms of CPU a
 * 640x360 frame, and its pixels' copy, that the server's thread no longer spends).
 */
export function perceiveFile(file: string, what: PerceiveWhat): Promise<Perception> {
  const task: Omit<PerceiveFileTask, 'id'> = { file, what };
  return thread.call<Perception>(task);
}

/** JPEG crops of the faces in `boxes` (px) on one JPEG frame image, made in the thread. */
export async function faceCrops(file: string, boxes: number[][]): Promise<Buffer[]> {
  const task: Omit<CropTask, 'id'> = { crops: { file, boxes } };
  const crops = await thread.call<Uint8Array[]>(task);
  return crops.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength));
}

/**
 * Starts loading the models in the thread (about 3 s of one core: modules, weights, kernels)
 * (the caller need not wait), so that the load overlaps the work before the first picture instead of
 * delaying it. A failed load is tried again by the first picture.
 */
export function loadPerception(): Promise<void> {
  const task: Omit<LoadTask, 'id'> = { load: true };
  return thread.call<null>(task).then(
    () => undefined,
    () => undefined,
  );
}

/** Whether the models' thread is running (loaded or loading). */
export function perceptionLoaded(): boolean {
  return thread.running();
}

/** Ends the thread (idle, tests, shutdown); the next picture starts a new one. */
export function closePerception(): Promise<void> {
  return thread.close();
}
