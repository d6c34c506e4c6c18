// Every tool starts in the media thread, and the analysis pass's frames are measured there
// (media-thread.ts; issue 28: health under 100 ms while a video is analysed, WORKER=inline). From
// the server's thread each spawn cost that thread a fork of the whole process (17-35 ms of CPU at
// the server's 600-900 MB), and every chunk of the pass's frames 20-26 ms of scene detection.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../../../tests/support/media.ts';
import { runAnalysisPass, runAnalysisPassHere } from './analysis-pass.ts';
import { closeMediaThread, mediaThreadRunning } from './media-thread.ts';
import { ProcessError, runProcess } from './run.ts';
import { resolveMediaTools } from './tools.ts';

const { ffmpeg, ffprobe } = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

/** CPU time (ms) the calling thread has used (Linux: /proc/thread-self). */
const threadCpuMs = (): number =>
  Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;

let dir: string;
let clip: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-media-thread-'));
  // 40 s with a cut every 5 s: 400 stats frames, about 90 chunks of ffmpeg's output.
  const sources = ['testsrc2', 'smptebars', 'mandelbrot', 'rgbtestsrc'];
  clip = (
    await makeVideo({
      segments: Array.from({ length: 8 }, (_, i) => ({ source: sources[i % 4]!, seconds: 5 })),
      width: 320,
      height: 240,
    })
  ).file;
});

afterAll(async () => {
  await closeMediaThread();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('media thread', { timeout: 120_000 }, () => {
  it.runIf(process.platform === 'linux')(
    'starts tools without costing the calling thread a fork of its memory',
    async () => {
      await runProcess(ffprobe, ['-version']); // the thread starts once
      // The server's size with its models: a fork from this thread copies the page tables of it.
      const held = Buffer.alloc(512 * 1024 * 1024, 1);
      try {
        const before = threadCpuMs();
        for (let i = 0; i < 10; i++) {
          const { stdout } = await runProcess(ffprobe, ['-version']);
          expect(stdout.toString()).toMatch(/^ffprobe version/);
        }
        // Forked from here, each of the ten cost 20-40 ms here; from the media thread 3-6 (the messages, and the
        // copy-on-write faults the fork leaves behind).
        expect(threadCpuMs() - before).toBeLessThan(100);
      } finally {
        held.fill(0, 0, 1);
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    "cuts a video as in the calling thread, without its frames' work there",
    async () => {
      const options = (sub: string) => {
        const workDir = path.join(dir, sub);
        fs.mkdirSync(workDir);
        return { ffmpeg, input: clip, workDir, durationMs: 40_000, format: 'mov' as const };
      };
      const here = await runAnalysisPassHere({ ...options('here'), minSceneMs: 1000 });
      const settled: number[][] = [];
      const before = threadCpuMs();
      const relayed = await runAnalysisPass({
        ...options('relayed'),
        minSceneMs: 1000,
        onSettled: (cut) => settled.push(cut.boundariesMs),
      });
      const cpuMs = threadCpuMs() - before;
      expect(relayed.boundariesMs).toEqual(here.boundariesMs);
      expect(relayed.boundariesMs).toHaveLength(7);
      expect(relayed.visual.count).toBe(here.visual.count);
      expect(relayed.visual.summarise(0, 5000)).toEqual(here.visual.summarise(0, 5000));
      expect(relayed.gridFrames.map((f) => path.basename(f))).toEqual(
        here.gridFrames.map((f) => path.basename(f)),
      );
      expect(settled.length).toBeGreaterThan(30);
      // In this thread, the 400 frames' scene detection alone cost 150-400 ms here.
      expect(cpuMs).toBeLessThan(60);
    },
  );

  it('fails as the tool did, and stops it when the caller stops', async () => {
    const failed = await runProcess(ffprobe, [path.join(dir, 'missing.mp4')]).catch((e) => e);
    expect(failed).toBeInstanceOf(ProcessError);
    expect((failed as ProcessError).exitCode).toBe(1);

    // The caller's onStdout throws: the tool is killed and the call fails with that error.
    const mine = new Error('enough');
    const started = performance.now();
    const stopped = runProcess('sh', ['-c', 'while true; do echo y; done'], {
      onStdout() {
        throw mine;
      },
    });
    await expect(stopped).rejects.toBe(mine);

    // An abort kills a tool that would run for a minute, and the call fails with its reason.
    const controller = new AbortController();
    const sleeping = runProcess('sleep', ['60'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('job cancelled')), 200);
    await expect(sleeping).rejects.toThrow('job cancelled');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(mediaThreadRunning()).toBe(true);
  });
});
