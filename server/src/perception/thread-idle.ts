// When the models' threads (faces and objects: thread.ts; the OCR engine: ocr-engine.ts) end for
// want of work. Loaded, they hold hundreds of MB of WebAssembly and weights that a server analysing
// a video a day should not keep (issue 31); ending the thread is what gives that memory back
// (a WebAssembly memory never shrinks). One process-wide setting, MODELS_IDLE_UNLOAD_S, given
// by the inline worker (jobs/inline.ts); a worker process of its own keeps the default.
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_MODELS_IDLE_UNLOAD_S } from '../config.ts';

let idleMs = DEFAULT_MODELS_IDLE_UNLOAD_S * 1000;

/** How long the models stay loaded with nothing to do (the next use loads them again). */
export function setModelsIdleUnload(seconds: number): void {
  idleMs = seconds * 1000;
}

/**
 * A full collection of this thread's heap, once its models are unloaded: what the last video left
 * (its frames' pixels, the OCR's images) is freed now, not at the next collection that
 * allocation would bring, which an idle server may not reach for hours.
 */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** Calls `unload` once no use has been held for the idle time (then collects the garbage). */
export class IdleUnload {
  private held = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly unload: () => void) {}

  /** A use begins: nothing is unloaded until the function it answers is called (once). */
  hold(): () => void {
    this.held++;
    clearTimeout(this.timer);
    this.timer = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.held === 0) this.arm();
    };
  }

  /** Forgets the timer (what it would unload is gone already). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.held > 0) return;
      this.unload();
      collectGarbage();
    }, idleMs);
    // A finished process does not wait for it.
    this.timer.unref();
  }
}
