// The perception thread's side (thread.ts starts it): pictures are looked at one after the other
// on this thread's Human, loaded on the first one.
import { parentPort } from 'node:worker_threads';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { answerCalls } from '../lib/thread-calls.ts';
import { perceiveOnThisThread, type Perception, type PerceiveWhat } from './detect.ts';

export interface PerceiveTask {
  id: number;
  image: RgbImage;
  what: PerceiveWhat;
}

let turn: Promise<unknown> = Promise.resolve();

answerCalls<PerceiveTask>(parentPort!, (task) => {
  const done: Promise<Perception> = turn.then(() => perceiveOnThisThread(task.image, task.what));
  turn = done.catch(() => undefined);
  return done;
});
