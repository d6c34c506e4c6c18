// Perception runs in one worker thread of the process. A frame costs 150-700 ms of synchronous
// WASM, and on the server's own thread (WORKER=inline, the default) that held every API request
// for as long, frame after frame, while a video with people was analysed (issue 14: analysis
// must not starve requests). The thread loads the models on its first picture (or earlier when
// asked: loadPerception) and keeps them while pictures come; after MODELS_IDLE_UNLOAD_S with none
// it ends, and its memory goes with it (thread-idle.ts); the next picture starts a new one. Idle,
// it does not keep the process alive. If it dies, the pictures it held fail and the next one
// starts a new thread.
import type { Worker } from 'node:worker_threads';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { threadCalls, type ThreadCalls } from '../lib/thread-calls.ts';
import { tsWorker } from '../lib/ts-worker.ts';
import type { Perception, PerceiveWhat } from './detect.ts';
import { FACE_API_BUNDLE } from './face-descriptor.ts';
import { HUMAN_BUNDLE } from './human.ts';
import { IdleUnload } from './thread-idle.ts';
import type { LoadTask, PerceiveTask } from './thread-worker.ts';

let current: { worker: Worker; calls: ThreadCalls } | undefined;
const idle = new IdleUnload(() => void closePerception());

/** Sends one task, holding the thread loaded until its answer. */
function call<R>(task: object, transfer: ArrayBuffer[] = []): Promise<R> {
  const release = idle.hold();
  return thread().call<R>(task, transfer).finally(release);
}

function thread(): ThreadCalls {
  if (current) return current.calls;
  const worker = tsWorker(new URL('./thread-worker.ts', import.meta.url), {
    preload: [HUMAN_BUNDLE, FACE_API_BUNDLE],
  });
  const started = { worker, calls: threadCalls(worker, 'perception') };
  // A thread that died fails its pictures (threadCalls); the next picture starts a new one.
  const forget = (): void => {
    if (current === started) current = undefined;
  };
  worker.on('error', forget);
  worker.on('exit', forget);
  current = started;
  return started.calls;
}

/** Faces and objects of one picture, looked at in the perception thread. */
export function perceiveImage(image: RgbImage, what: PerceiveWhat): Promise<Perception> {
  // A copy of the pixels is moved to the thread (the caller's buffer may be a view of a larger one).
  const data = new Uint8Array(image.data);
  const task: Omit<PerceiveTask, 'id'> = {
    image: { width: image.width, height: image.height, data },
    what,
  };
  return call<Perception>(task, [data.buffer]);
}

/**
 * Starts loading the models in the thread (about 3 s of one core: modules, weights, kernels)
 * (the caller need not wait), so that the load overlaps the work before the first picture instead of
 * delaying it. A failed load is tried again by the first picture.
 */
export function loadPerception(): Promise<void> {
  const task: Omit<LoadTask, 'id'> = { load: true };
  return call<null>(task).then(
    () => undefined,
    () => undefined,
  );
}

/** Whether the models' thread is running (loaded or loading). */
export function perceptionLoaded(): boolean {
  return current !== undefined;
}

/** Ends the thread (idle, tests, shutdown); the next picture starts a new one. */
export async function closePerception(): Promise<void> {
  const running = current;
  current = undefined;
  idle.cancel();
  if (running) await running.worker.terminate();
}
