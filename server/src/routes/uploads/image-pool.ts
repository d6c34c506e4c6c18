// A small, bounded pool of worker threads for the image work of uploads (image-worker.ts), spoken
// to through thread-calls like every other server thread: at most POOL_THREADS pictures are
// checked at once, at most POOL_QUEUE wait (more answer 503), and one that takes longer than
// TASK_TIMEOUT_MS is refused and its thread replaced. Threads start on first use and, idle, do
// not keep the process alive.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { HttpError } from '../../lib/http-error.ts';
import { threadCalls, type ThreadCalls } from '../../lib/thread-calls.ts';
import { tsWorker } from '../../lib/ts-worker.ts';
import { asImageRejected, ImageRejected } from './image-limits.ts';
import type { ImageChecked, ImageTask } from './image-worker.ts';

const POOL_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** 20 images a request: two full requests may wait. */
const POOL_QUEUE = 40;
const TASK_TIMEOUT_MS = 20_000;
const TIMED_OUT = 'The picture took too long to check.';

interface Waiting {
  task: ImageTask;
  resolve(checked: ImageChecked): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  calls: ThreadCalls;
  busy: boolean;
}

export class ImagePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Waiting[] = [];
  /** Tasks being worked on right now (for tests and logs). */
  inFlight = 0;

  constructor(
    private readonly threads = POOL_THREADS,
    private readonly maxQueue = POOL_QUEUE,
    private readonly timeoutMs = TASK_TIMEOUT_MS,
  ) {}

  /** Checks one picture in a worker thread: where its checked bytes are, or ImageRejected. */
  check(task: ImageTask): Promise<ImageChecked> {
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new HttpError(503, 'The server is busy checking other pictures; try again shortly.'),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.pump();
    });
  }

  /** Threads alive now (for tests). */
  get threadCount(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.threads) slot = this.spawn();
      if (!slot) return;
      void this.run(slot, this.queue.shift()!);
    }
  }

  private async run(slot: Slot, job: Waiting): Promise<void> {
    slot.busy = true;
    this.inFlight++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ImageRejected(TIMED_OUT)), this.timeoutMs);
    });
    try {
      job.resolve(await Promise.race([slot.calls.call<ImageChecked>(job.task), timeout]));
    } catch (err) {
      // A thread still busy with a picture past its time is stopped; the next task gets a new one.
      if (err instanceof ImageRejected && err.message === TIMED_OUT) this.drop(slot);
      job.reject(asImageRejected(err));
    } finally {
      clearTimeout(timer);
      slot.busy = false;
      this.inFlight--;
      this.pump();
    }
  }

  private spawn(): Slot {
    const worker = tsWorker(new URL('./image-worker.ts', import.meta.url));
    const slot: Slot = { worker, calls: threadCalls(worker, 'image'), busy: false };
    // A thread that died has failed its call (thread-calls); it is not used again.
    worker.once('exit', () => this.drop(slot));
    this.slots.push(slot);
    return slot;
  }

  private drop(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    void slot.worker.terminate();
  }
}

let shared: ImagePool | undefined;

/** The process's one pool. */
export function imagePool(): ImagePool {
  shared ??= new ImagePool();
  return shared;
}
