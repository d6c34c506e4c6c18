// Progress to every open page over BroadcastChannel, at most one message per job per interval.
// State changes go out at once (a page must never miss "failed" or "done"); byte progress in
// between is coalesced, and the latest value is always delivered when the interval ends.
import { PROGRESS_INTERVAL_MS, UPLOAD_QUEUE_CHANNEL } from '../config/upload-queue.ts';
import type { JobMessage } from './job-types.ts';

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ProgressPublisher {
  publish(message: JobMessage): void;
  /** Sends anything pending now (before the runner stops). */
  flush(): void;
  close(): void;
}

interface Slot {
  lastSentAt: number;
  lastState: string | undefined;
  pending: JobMessage | undefined;
  timer: unknown;
}

export function createThrottledPublisher(
  post: (message: JobMessage) => void,
  intervalMs = PROGRESS_INTERVAL_MS,
  timers: Timers = realTimers,
): ProgressPublisher {
  const slots = new Map<string, Slot>();

  const sendNow = (slot: Slot, message: JobMessage): void => {
    if (slot.timer !== undefined) timers.clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.pending = undefined;
    slot.lastSentAt = timers.now();
    slot.lastState = message.state;
    post(message);
  };

  return {
    publish(message) {
      let slot = slots.get(message.jobId);
      if (!slot) {
        slot = {
          lastSentAt: -Infinity,
          lastState: undefined,
          pending: undefined,
          timer: undefined,
        };
        slots.set(message.jobId, slot);
      }
      const wait = slot.lastSentAt + intervalMs - timers.now();
      if (message.state !== slot.lastState || wait <= 0) {
        sendNow(slot, message);
        return;
      }
      slot.pending = message;
      if (slot.timer === undefined) {
        const current = slot;
        current.timer = timers.setTimeout(() => {
          current.timer = undefined;
          if (current.pending) sendNow(current, current.pending);
        }, wait);
      }
    },
    flush() {
      for (const slot of slots.values()) if (slot.pending) sendNow(slot, slot.pending);
    },
    close() {
      for (const slot of slots.values())
        if (slot.timer !== undefined) timers.clearTimeout(slot.timer);
      slots.clear();
    },
  };
}

/** The channel every page and the service worker share. */
export function openQueueChannel(): BroadcastChannel {
  return new BroadcastChannel(UPLOAD_QUEUE_CHANNEL);
}
