// In-process notices between the code that changes the queue and the workers of this process:
// an enqueue wakes an idle worker at once, a cancel aborts a running handler at once. Workers in
// other processes learn the same by polling and by their lease heartbeat.
import { EventEmitter } from 'node:events';

export interface JobSignals {
  enqueued: [name: string];
  cancelled: [jobIds: string[]];
}

export const jobSignals = new EventEmitter<JobSignals>();
// Every inline worker and test worker listens; do not warn about a handful of listeners.
jobSignals.setMaxListeners(100);
