// The perception thread's side (thread.ts starts it): pictures are looked at one after the other
// on this thread's models (Human, face-api's descriptor), loaded on the first one.
import { parentPort } from 'node:worker_threads';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { answerCalls } from '../lib/thread-calls.ts';
import { perceiveOnThisThread, type Perception, type PerceiveWhat } from './detect.ts';
import { getFaceDescriber } from './face-descriptor.ts';
import { lowerThisThread } from './thread-priority.ts';

export interface PerceiveTask {
  id: number;
  image: RgbImage;
  what: PerceiveWhat;
}

/** Loads the models ahead of the first picture (see loadPerception). */
export interface LoadTask {
  id: number;
  load: true;
}

lowerThisThread();

let turn: Promise<unknown> = Promise.resolve();

answerCalls<PerceiveTask | LoadTask>(parentPort!, (task) => {
  const done: Promise<Perception | null> = turn.then(() =>
    'load' in task
      ? getFaceDescriber().then(() => null)
      : perceiveOnThisThread(task.image, task.what),
  );
  turn = done.catch(() => undefined);
  return done;
});
