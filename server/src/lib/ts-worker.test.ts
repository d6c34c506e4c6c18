// Every thread of ours loads its TypeScript in the thread itself (tsx's require hook), not through
// a module-loader thread of its own (issue 31: about 17 MB and 0.25 CPU-s for each thread an
// analysis starts). The media thread is the example: starting it adds one thread to the process.
import fs from 'node:fs';
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { tsWorker } from './ts-worker.ts';

const threads = (): number => fs.readdirSync('/proc/self/task').length;

describe('tsWorker', () => {
  it.skipIf(!fs.existsSync('/proc/self/task'))(
    'starts one thread that runs a TypeScript module, and no loader thread beside it',
    async () => {
      // libuv's file system threads start at their first use: before counting.
      await fs.promises.readFile(import.meta.filename);
      const before = threads();
      const worker = tsWorker(new URL('../media/media-thread-worker.ts', import.meta.url), {
        workerData: { mediaThread: true },
      });
      try {
        // The module answers a call (media-thread-worker: remove a folder that is not there).
        const { port2 } = new MessageChannel();
        worker.postMessage({ id: 1, remove: '/nonexistent-va-dir', port: port2 }, [port2]);
        const [answer] = (await once(worker, 'message')) as [{ id: number; ok: boolean }];
        expect(answer).toMatchObject({ id: 1, ok: true });
        expect(threads()).toBe(before + 1);
      } finally {
        await worker.terminate();
      }
    },
    60_000,
  );
});
