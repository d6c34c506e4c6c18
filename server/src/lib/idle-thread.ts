// One worker thread of the process that starts on its first call and ends after
// MODELS_IDLE_UNLOAD_S without one (perception/thread-idle.ts), so that its memory goes with it;
// the next call starts a new one. Idle, it does not keep the process alive (thread-calls.ts). If it
// dies, the calls it held fail and the next call starts a new thread. The models' thread
// (perception/thread.ts), the OCR's (analysis/local/ocr-frames-thread.ts) and the media thread
// (media/media-thread.ts) are each one of these.
import type { TransferListItem, Worker } from 'node:worker_threads';
import { IdleUnload } from '../perception/thread-idle.ts';
import { threadCalls, type ThreadCalls } from './thread-calls.ts';

export class IdleThread {
  private current: { worker: Worker; calls: ThreadCalls } | undefined;
  private readonly idle = new IdleUnload(() => void this.close());

  /** `name` names the thread in the error of a call it died holding. */
  constructor(
    private readonly name: string,
    private readonly start: () => Worker,
  ) {}

  /** Sends one task, holding the thread until its answer. */
  call<R>(task: object, transfer: readonly TransferListItem[] = []): Promise<R> {
    const release = this.idle.hold();
    return this.thread().call<R>(task, transfer).finally(release);
  }

  /** Whether the thread is running. */
  running(): boolean {
    return this.current !== undefined;
  }

  /** Ends the thread (idle, tests, shutdown); the next call starts a new one. */
  async close(): Promise<void> {
    const running = this.current;
    this.current = undefined;
    this.idle.cancel();
    if (running) await running.worker.terminate();
  }

  private thread(): ThreadCalls {
    if (this.current) return this.current.calls;
    const worker = this.start();
    const started = { worker, calls: threadCalls(worker, this.name) };
    const forget = (): void => {
      if (this.current === started) this.current = undefined;
    };
    worker.on('error', forget);
    worker.on('exit', forget);
    this.current = started;
    return started.calls;
  }
}
