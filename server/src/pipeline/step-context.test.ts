// A job's folder (hundreds of frame images) is removed from the media thread (issue 28: health
// under 100 ms with WORKER=inline): fs.rm's callbacks, a lstat and an unlink a file, ran on the
// server's thread, all in one turn of its loop as they completed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { closeMediaThread, removeTree } from '../media/media-thread.ts';
import type { MediaTools } from '../media/tools.ts';
import { openStepContext } from './step-context.ts';
import type { VideoToAnalyse } from './video-store.ts';

afterAll(() => closeMediaThread());

/** CPU time (ms) the calling thread has used (Linux: /proc/thread-self). */
const threadCpuMs = (): number =>
  Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;

it.runIf(process.platform === 'linux')(
  "removes the job's folder without its files' work on the calling thread",
  async () => {
    const open = () =>
      openStepContext(
        {} as AppContext,
        { id: '00000000-0000-4000-8000-000000000000' } as VideoToAnalyse,
        {} as MediaTools,
        new AbortController().signal,
        new Map(),
      );
    // The media thread starts once.
    await removeTree(path.join((await open()).step.workDir, 'none'));
    const { step, close } = await open();
    for (let d = 0; d < 4; d++) {
      const dir = path.join(step.workDir, `frames-${d}`);
      fs.mkdirSync(dir);
      for (let i = 0; i < 1000; i++) fs.writeFileSync(path.join(dir, `f-${i}.jpg`), 'x');
    }
    const before = threadCpuMs();
    await close();
    const spent = threadCpuMs() - before;
    expect(fs.existsSync(step.workDir)).toBe(false);
    // On the calling thread, the 4,000 files cost it about 90 ms (load average 8).
    expect(spent).toBeLessThan(30);
  },
);
