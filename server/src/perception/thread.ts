// Perception runs in one worker thread of the process. A frame costs 150-700 ms of synchronous
// WASM, and on the server's own thread (WORKER=inline, the default) that held every API request
// for as long, frame after frame, while a video with people was analysed (issue 14: analysis
// must not starve requests). The thread loads the models once, on its first picture, and keeps
// them; idle, it does not keep the process alive. If it dies, the pictures it held fail and the next
// one starts a new thread.
import type { Worker } from 'node:worker_threads';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { tsWorker } from '../lib/ts-worker.ts';
import type { Perception, PerceiveWhat } from './detect.ts';
import type { PerceiveAnswer, PerceiveTask } from './thread-worker.ts';

interface Pending {
  resolve(perception: Perception): void;
  reject(err: unknown): void;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

function failAll(err: Error): void {
  worker = undefined;
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function thread(): Worker {
  if (worker) return worker;
  const started = tsWorker(new URL('./thread-worker.ts', import.meta.url));
  started.unref();
  started.on('message', (answer: PerceiveAnswer) => {
    const p = pending.get(answer.id);
    if (!p) return;
    pending.delete(answer.id);
    if (pending.size === 0) started.unref();
    if (answer.ok) p.resolve(answer.perception);
    else p.reject(new Error(answer.message));
  });
  started.on('error', (err) => failAll(err));
  started.on('exit', (code) => failAll(new Error(`perception thread exited (${code})`)));
  worker = started;
  return started;
}

/** Faces and objects of one picture, looked at in the perception thread. */
export function perceiveImage(image: RgbImage, what: PerceiveWhat): Promise<Perception> {
  const id = nextId++;
  // A copy of the pixels is moved to the thread (the caller's buffer may be a view of a larger one).
  const data = new Uint8Array(image.data);
  const task: PerceiveTask = {
    id,
    image: { width: image.width, height: image.height, data },
    what,
  };
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    const running = thread();
    running.ref(); // while it holds pictures, the thread keeps the process alive
    running.postMessage(task, [data.buffer]);
  });
}

/** Ends the thread (tests and shutdown); the next picture starts a new one. */
export async function closePerception(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await running.terminate();
}
