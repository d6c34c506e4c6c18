// The media thread's side (media-thread.ts starts it): starts the tools and runs the analysis
// pass's decode here, answering each task by its id, and each task's own port for what goes on
// while it runs.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { answerCalls } from '../lib/thread-calls.ts';
import { lowerThisThread } from '../perception/thread-priority.ts';
import {
  runAnalysisPassHere,
  type PassAnswer,
  type PassTask,
  type SettledCutData,
  type SettledMessage,
} from './analysis-pass.ts';
import {
  removeTree,
  type RemoveTask,
  type RunTask,
  type StdoutChunk,
  type ToThread,
} from './media-thread.ts';
import type { RunResult } from './run-options.ts';
import { spawnProcess } from './run.ts';

lowerThisThread();

/** The task's port: the caller's abort, and the acknowledgement of each relayed chunk. */
function listen(port: MessagePort): { signal: AbortSignal; acked(): Promise<void> } {
  const aborted = new AbortController();
  let waiting: (() => void) | undefined;
  port.on('message', (m: ToThread) => {
    if ('abort' in m) aborted.abort(new Error('aborted by the caller'));
    else {
      waiting?.();
      waiting = undefined;
    }
  });
  // Abort ends the wait for an acknowledgement too: the tool is killed meanwhile.
  aborted.signal.addEventListener('abort', () => waiting?.(), { once: true });
  return {
    signal: aborted.signal,
    acked: () =>
      new Promise<void>((resolve) => {
        if (aborted.signal.aborted) resolve();
        else waiting = resolve;
      }),
  };
}

async function run(task: RunTask['run'], port: MessagePort): Promise<RunResult> {
  const { bin, args, relay, ...limits } = task;
  const { signal, acked } = listen(port);
  return spawnProcess(bin, args, {
    ...limits,
    signal,
    ...(relay && {
      onStdout(chunk: Buffer) {
        // A copy of its own: the stream's buffer may be a slice of a larger one.
        const copy = new Uint8Array(chunk);
        port.postMessage({ chunk: copy } satisfies StdoutChunk, [copy.buffer]);
        return acked();
      },
    }),
  });
}

async function pass(task: PassTask['pass'], port: MessagePort): Promise<PassAnswer> {
  const { settles, ...options } = task;
  const { signal } = listen(port);
  const result = await runAnalysisPassHere({
    ...options,
    signal,
    ...(settles && {
      onSettled: (settled: SettledCutData) =>
        port.postMessage({ settled } satisfies SettledMessage),
    }),
  });
  return { ...result, visual: result.visual.data() };
}

type Task = (RunTask | PassTask | RemoveTask) & { id: number; port: MessagePort };

answerCalls<Task>(parentPort!, async (task) => {
  try {
    if ('remove' in task) return await removeTree(task.remove);
    return 'run' in task ? await run(task.run, task.port) : await pass(task.pass, task.port);
  } finally {
    task.port.close();
  }
});
