// A small, bounded pool of worker threads for the image work of uploads (image-worker.ts): at
// most POOL_THREADS pictures are checked at once, at most POOL_QUEUE wait (more answer 503), and
// one that takes longer than TASK_TIMEOUT_MS is refused and its thread replaced. Threads start on
// first use and do not keep the process alive.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { HttpError } from '../../lib/http-error.ts';
import { tsWorker } from '../../lib/ts-worker.ts';
import { ImageRejected } from './image-limits.ts';
import type { ImageAnswer, ImageKind, ImageTask } from './image-worker.ts';

const POOL_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** 20 images a request: two full requests may wait. */
const POOL_QUEUE = 40;
const TASK_TIMEOUT_MS = 20_000;

interface Pending {
  task: ImageTask;
  resolve(answer: { svg?: string; threadId: number }): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  job?: Pending;
  timer?: NodeJS.Timeout;
}

export class ImagePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  /** Tasks being worked on right now (for tests and logs). */
  inFlight = 0;

  constructor(
    private readonly threads = POOL_THREADS,
    private readonly maxQueue = POOL_QUEUE,
    private readonly timeoutMs = TASK_TIMEOUT_MS,
  ) {}

  /** Checks one picture in a worker thread: the rebuilt SVG text, or ImageRejected. */
  check(kind: ImageKind, file: string): Promise<{ svg?: string; threadId: number }> {
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new HttpError(503, 'The server is busy checking other pictures; try again shortly.'),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ task: { id: this.nextId++, kind, file }, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.threads) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      this.inFlight++;
      slot.timer = setTimeout(
        () => this.fail(slot, 'The picture took too long to check.'),
        this.timeoutMs,
      );
      slot.worker.postMessage(job.task);
    }
  }

  private spawn(): Slot {
    const worker = tsWorker(new URL('./image-worker.ts', import.meta.url));
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (answer: ImageAnswer) => {
      const job = slot.job;
      if (!job || job.task.id !== answer.id) return;
      this.finish(slot);
      if (answer.ok) job.resolve({ svg: answer.svg, threadId: answer.threadId });
      else if (answer.rejected) job.reject(new ImageRejected(answer.message));
      else job.reject(new Error(`image worker: ${answer.message}`));
    });
    worker.on('error', (err) => this.fail(slot, undefined, err));
    worker.on('exit', () => this.fail(slot, undefined, new Error('image worker exited')));
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.job = undefined;
    this.inFlight--;
    this.pump();
  }

  /** Ends the slot's job (refused with `message`, or failed with `err`) and drops the thread. */
  private fail(slot: Slot, message?: string, err?: unknown): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    const job = slot.job;
    if (job) {
      this.finish(slot);
      job.reject(message ? new ImageRejected(message) : err);
    }
    void slot.worker.terminate();
    this.pump();
  }
}

let shared: ImagePool | undefined;

/** The process's one pool. */
export function imagePool(): ImagePool {
  shared ??= new ImagePool();
  return shared;
}
