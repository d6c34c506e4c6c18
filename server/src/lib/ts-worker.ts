// A worker thread running one of our TypeScript modules. Worker threads do not inherit the
// TypeScript loader that `node --import tsx` gives the main thread (Node 20), so the worker
// registers it before loading its module.
import { Worker, type WorkerOptions } from 'node:worker_threads';

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
