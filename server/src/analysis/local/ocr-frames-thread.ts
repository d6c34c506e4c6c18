// The OCR's text detection (ocr-frames.ts) runs in one worker thread of the process, below the
// server's CPU priority (perception/thread-priority.ts). On the server's own thread (WORKER=inline,
// the default) each candidate frame's JPEG decode (6-12 ms) and detection (22-60 ms) held every
// API request for as long, frame after frame (issue 28: health under 100 ms during an analysis).
// The thread starts with the first scene and ends after MODELS_IDLE_UNLOAD_S without one, as the
// models' threads do (perception/thread-idle.ts); idle, it does not keep the process alive. If it
// dies, the scene it held fails and the next one starts a new thread.
import type { Worker } from 'node:worker_threads';
import { threadCalls, type ThreadCalls } from '../../lib/thread-calls.ts';
import { tsWorker } from '../../lib/ts-worker.ts';
import { IdleUnload } from '../../perception/thread-idle.ts';
import type { FrameReading } from './ocr-frames.ts';
import type { SceneTask } from './ocr-frames-worker.ts';

let current: { worker: Worker; calls: ThreadCalls } | undefined;
const idle = new IdleUnload(() => void closeTextDetection());

function thread(): ThreadCalls {
  if (current) return current.calls;
  const worker = tsWorker(new URL('./ocr-frames-worker.ts', import.meta.url));
  const started = { worker, calls: threadCalls(worker, 'text detection') };
  const forget = (): void => {
    if (current === started) current = undefined;
  };
  worker.on('error', forget);
  worker.on('exit', forget);
  current = started;
  return started.calls;
}

/** The frames of one scene worth reading (ocr-frames.ts, detectSceneText), found in the thread. */
export async function sceneReadings(
  framePaths: readonly string[],
  durationMs: number,
): Promise<FrameReading[]> {
  const release = idle.hold();
  try {
    const task: Omit<SceneTask, 'id'> = { framePaths, durationMs };
    const found = await thread().call<FrameReading[]>(task);
    // A Buffer crosses the thread as a plain Uint8Array: a view of the same bytes, no copy.
    return found.map((f) => ({
      ...f,
      image: Buffer.from(f.image.buffer, f.image.byteOffset, f.image.byteLength),
    }));
  } finally {
    release();
  }
}

/** Whether the text detection's thread is running. */
export function textDetectionRunning(): boolean {
  return current !== undefined;
}

/** Ends the thread (idle, tests, shutdown); the next scene starts a new one. */
export async function closeTextDetection(): Promise<void> {
  const running = current;
  current = undefined;
  idle.cancel();
  if (running) await running.worker.terminate();
}
