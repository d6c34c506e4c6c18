// The text detection thread's side (ocr-frames-thread.ts starts it): one scene at a time.
import { parentPort } from 'node:worker_threads';
import { answerCalls } from '../../lib/thread-calls.ts';
import { lowerThisThread } from '../../perception/thread-priority.ts';
import { detectSceneText } from './ocr-frames.ts';

export interface SceneTask {
  id: number;
  framePaths: readonly string[];
  durationMs: number;
}

lowerThisThread();

answerCalls<SceneTask>(parentPort!, (task) => detectSceneText(task.framePaths, task.durationMs));
