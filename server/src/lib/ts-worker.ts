// A worker thread running one of our TypeScript modules. Worker threads do not inherit the
// TypeScript loader that `node --import tsx` gives the main thread (Node 20), so the worker
// registers tsx's require hook before loading its module. The hook transforms in the thread
// itself; tsx's module loader would run its hooks in a thread of their own (Node 20's
// module.register): a second V8 instance with tsx and esbuild loaded, about 20 MB of RSS and its
// start-up CPU for each of our threads, kept for the process's life (issue 31,
// docs/decisions/server-memory.md). The module and what it imports load as CommonJS, so they must
// use no top-level await and import no ESM-only package (import.meta.url works).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const require = createRequire(import.meta.url);

export interface TsWorkerOptions extends Omit<WorkerOptions, 'eval'> {
  /**
   * CommonJS files (absolute paths) required before the hook is registered, so that it does not
   * see them: the face models' 3 MB bundle then loads in half the CPU time and 20 MB less memory.
   * Later requires of the same files get these modules.
   */
  preload?: readonly string[];
}

export function tsWorker(module: URL, { preload = [], ...options }: TsWorkerOptions = {}): Worker {
  const entry = [
    ...preload.map((file) => `require(${JSON.stringify(file)});`),
    `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();`,
    `require(${JSON.stringify(fileURLToPath(module))});`,
  ].join('\n');
  return new Worker(entry, { ...options, eval: true });
}
