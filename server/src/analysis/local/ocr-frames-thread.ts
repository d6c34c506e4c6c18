// The OCR's text detection (ocr-frames.ts) runs in one worker thread of the process, below the
// server's CPU priority (perception/thread-priority.ts). On the server's own thread (WORKER=inline,
// the default) each candidate frame's JPEG decode (6-12 ms) and detection (22-60 ms) held every
// API request for as long, frame after frame (issue 28: health under 100 ms during an analysis).
// The thread starts with the first scene and ends after MODELS_IDLE_UNLOAD_S without one, as the
// models' threads do (perception/thread-idle.ts); idle, it does not keep the process alive. If it
// dies, the scene it held fails and the next one starts a new thread.
import { IdleThread } from '../../lib/idle-thread.ts';
import { tsWorker } from '../../lib/ts-worker.ts';
import type { FrameReading } from './ocr-frames.ts';
import type { SceneTask } from './ocr-frames-worker.ts';

const thread = new IdleThread('text detection', () =>
  tsWorker(new URL('./ocr-frames-worker.ts', import.meta.url)),
);

/** The frames of one scene worth reading (ocr-frames.ts, detectSceneText), found in the thread. */
export async function sceneReadings(
  framePaths: readonly string[],
  durationMs: number,
): Promise<FrameReading[]> {
  const task: Omit<SceneTask, 'id'> = { framePaths, durationMs };
  const found = await thread.call<FrameReading[]>(task);
  // A Buffer crosses the thread as a plain Uint8Array: a view of the same bytes, no copy.
  return found.map((f) => ({
    ...f,
    image: Buffer.from(f.image.buffer, f.image.byteOffset, f.image.byteLength),
  }));
}

/** Whether the text detection's thread is running. */
export function textDetectionRunning(): boolean {
  return thread.running();
}

/** Ends the thread (idle, tests, shutdown); the next scene starts a new one. */
export function closeTextDetection(): Promise<void> {
  return thread.close();
}
