// The perception thread's side (thread.ts starts it): pictures are looked at one after the other
// on this thread's models (Human, face-api's descriptor), loaded on the first one.
import { parentPort } from 'node:worker_threads';
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { answerCalls } from '../lib/thread-calls.ts';
import { decodeJpegFile } from '../media/jpeg-frames.ts';
import { perceiveOnThisThread, type Perception, type PerceiveWhat } from './detect.ts';
import { faceCropJpeg } from './face-crop.ts';
import { getFaceDescriber } from './face-descriptor.ts';
import { lowerThisThread } from './thread-priority.ts';

export interface PerceiveTask {
  id: number;
  image: RgbImage;
  what: PerceiveWhat;
}

/** A scene's frame image, decoded here (its pixels never reach the server's thread). */
export interface PerceiveFileTask {
  id: number;
  file: string;
  what: PerceiveWhat;
}

/** The JPEG crops of faces (boxes in px) on one frame image, decoded here. */
export interface CropTask {
  id: number;
  crops: { file: string; boxes: number[][] };
}

/** Loads the models ahead of the first picture (see loadPerception). */
export interface LoadTask {
  id: number;
  load: true;
}

lowerThisThread();

let turn: Promise<unknown> = Promise.resolve();

type Task = PerceiveTask | PerceiveFileTask | CropTask | LoadTask;

async function answer(task: Task): Promise<Perception | Uint8Array[] | null> {
  if ('load' in task) return getFaceDescriber().then(() => null);
  if ('crops' in task) {
    const image = await decodeJpegFile(task.crops.file);
    const crops: Uint8Array[] = [];
    for (const box of task.crops.boxes) crops.push(await faceCropJpeg(image, box));
    return crops;
  }
  const image = 'file' in task ? await decodeJpegFile(task.file) : task.image;
  return perceiveOnThisThread(image, task.what);
}

answerCalls<Task>(parentPort!, (task) => {
  const done = turn.then(() => answer(task));
  turn = done.catch(() => undefined);
  return done;
});
