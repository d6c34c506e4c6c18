// The perception thread's side (thread.ts starts it): pictures are looked at one after the other
// on this thread's Human, loaded on the first one.
import { parentPort } from 'node:worker_threads';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { perceiveOnThisThread, type Perception, type PerceiveWhat } from './detect.ts';

export interface PerceiveTask {
  id: number;
  image: RgbImage;
  what: PerceiveWhat;
}

export type PerceiveAnswer =
  { id: number; ok: true; perception: Perception } | { id: number; ok: false; message: string };

let turn: Promise<void> = Promise.resolve();

parentPort?.on('message', (task: PerceiveTask) => {
  turn = turn.then(async () => {
    let answer: PerceiveAnswer;
    try {
      answer = {
        id: task.id,
        ok: true,
        perception: await perceiveOnThisThread(task.image, task.what),
      };
    } catch (err) {
      answer = {
        id: task.id,
        ok: false,
        message: err instanceof Error ? err.message : String(err),
      };
    }
    parentPort?.postMessage(answer);
  });
});
