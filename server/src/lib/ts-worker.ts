// A worker thread running one of our TypeScript modules. Worker threads do not inherit the
// TypeScript loader that `node --import tsx` gives the main thread (Node 20), so the worker
// registers it before loading its module: tsx's module loader (tsWorker), or its require hook
// (tsRequireWorker).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const require = createRequire(import.meta.url);

export interface TsWorkerOptions extends Omit<WorkerOptions, 'eval'> {
  /**
   * CommonJS files (absolute paths) required before the loader is registered, so that its hooks
   * do not see them: the face models' 3 MB bundle then loads in half the CPU time and 20 MB less
   * memory. Later requires of the same files get these modules.
   */
  preload?: readonly string[];
}

export function tsWorker(module: URL, { preload = [], ...options }: TsWorkerOptions = {}): Worker {
  const entry = `${preload.map((file) => `require(${JSON.stringify(file)});`).join('\n')}
import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => register())
  .then(() => import(${JSON.stringify(module.href)}));`;
  return new Worker(entry, { ...options, eval: true });
}

/**
 * A worker whose TypeScript is loaded by tsx's require hook, which transforms in the thread
 * itself. tsx's module loader (tsWorker) runs its hooks in a thread of their own (Node 20's
 * module.register): a second V8 instance with tsx and esbuild's API loaded, kept for the
 * process's life, about 20 MB of RSS (issue 31, docs/decisions/server-memory.md). The module and
 * what it imports load as CommonJS, so they must use no import.meta and no top-level await.
 */
export function tsRequireWorker(module: URL): Worker {
  const entry = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
require(${JSON.stringify(fileURLToPath(module))});`;
  return new Worker(entry, { eval: true });
}
