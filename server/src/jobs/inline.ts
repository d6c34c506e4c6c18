// WORKER=inline: the analysis worker inside the server process (the default of `npm start`).
import type { AppContext } from '../context.ts';
import { productHandlers } from './handlers.ts';
import { JobWorker } from './worker.ts';

export function startInlineWorker(ctx: AppContext): JobWorker {
  // One job at a time: the server shares its CPU with the requests it serves.
  const worker = new JobWorker(ctx, { handlers: productHandlers(), concurrency: 1 });
  worker.start();
  return worker;
}
