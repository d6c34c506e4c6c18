// WORKER=inline: the job workers inside the server process (the default of `npm start`).
import type { AppContext } from '../context.ts';
import { setModelsIdleUnload } from '../perception/thread-idle.ts';
import { startWorkerLanes, type WorkerLanes } from './lanes.ts';

export function startInlineWorker(ctx: AppContext): WorkerLanes {
  // The server's memory between videos is the web app's alone (issue 31).
  setModelsIdleUnload(ctx.config.modelsIdleUnloadS);
  // One video job at a time: the server shares its CPU with the requests it serves.
  return startWorkerLanes(ctx, { concurrency: 1 });
}
