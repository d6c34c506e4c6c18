// The OCR's text detection runs off the server's thread (issue 28: health under 100 ms while a
// video is analysed with WORKER=inline). On the server's thread each candidate frame's decode and
// detection held the event loop for their whole time, frame after frame; now the loop keeps
// turning while frames are searched, and the thread ends when idle like the models' threads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS_IDLE_UNLOAD_S } from '../../config.ts';
import { decodeJpegFile } from '../../media/jpeg-frames.ts';
import { runProcess } from '../../media/run.ts';
import { resolveMediaTools } from '../../media/tools.ts';
import { setModelsIdleUnload } from '../../perception/thread-idle.ts';
import { sceneReadings, closeTextDetection, textDetectionRunning } from './ocr-frames-thread.ts';
import { findText } from './ocr-image.ts';

const { ffmpeg } = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

let dir: string;
/** A full-HD frame of fine texture and text (the detection's costly case). */
let busy: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-ocr-thread-'));
  busy = path.join(dir, 'busy.jpg');
  await runProcess(ffmpeg, [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc2=size=1920x1080', '-frames:v', '1', busy],
  ]);
});

afterAll(async () => {
  setModelsIdleUnload(DEFAULT_MODELS_IDLE_UNLOAD_S);
  await closeTextDetection();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The longest time (ms) the event loop did not turn while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 2);
  try {
    await work();
  } finally {
    clearInterval(tick);
  }
  return Math.max(longest, performance.now() - last);
}

describe('text detection thread', { timeout: 120_000 }, () => {
  it('searches frames while the event loop keeps turning', async () => {
    // What one frame costs this thread when done here (the second time: the decoder compiled).
    await decodeJpegFile(busy);
    const started = performance.now();
    findText(await decodeJpegFile(busy));
    const oneFrameHere = performance.now() - started;
    await sceneReadings([busy], 3000); // the thread starts
    // Three scenes of three candidates: nine decodes and detections.
    const stall = await longestStall(async () => {
      for (let i = 0; i < 3; i++) {
        const found = await sceneReadings([busy, busy, busy], 3000);
        expect(found.length).toBeLessThanOrEqual(1);
        for (const f of found) expect(Buffer.isBuffer(f.image)).toBe(true);
      }
    });
    // Here, each frame stopped the loop for all of oneFrameHere at least.
    expect(stall).toBeLessThan(oneFrameHere / 2);
  });

  it('ends after the idle time, and the next scene starts it again', async () => {
    setModelsIdleUnload(0.2);
    await sceneReadings([busy], 3000);
    expect(textDetectionRunning()).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect(textDetectionRunning()).toBe(false);
    await sceneReadings([busy], 3000);
    expect(textDetectionRunning()).toBe(true);
  });

  it('fails a frame it cannot decode, and the next scene still works', async () => {
    const broken = path.join(dir, 'broken.jpg');
    fs.writeFileSync(broken, 'not a jpeg');
    await expect(sceneReadings([broken], 3000)).rejects.toThrow(/frame image not decoded/);
    await expect(sceneReadings([busy], 3000)).resolves.toBeDefined();
  });
});
