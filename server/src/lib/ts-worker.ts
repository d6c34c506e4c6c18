// A worker thread running one of our TypeScript modules. Worker threads do not inherit the
// TypeScript loader that `node --import tsx` gives the main thread (Node 20), so the worker
// registers it before loading its module.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function tsWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const entry = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => register())
  .then(() => import(${JSON.stringify(module.href)}));`;
  return new Worker(entry, { ...options, eval: true });
}
