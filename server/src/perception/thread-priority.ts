// The perception thread runs below the server's CPU priority, as the media tools do (run.ts):
// with WORKER=inline the models share the web process, and a frame's 50-500 ms of WASM on one
// core at the server's priority took that core from the requests. Linux keeps a niceness per
// thread: setpriority(2) on a thread id changes that thread alone (and the threads it starts).
import fs from 'node:fs';
import os from 'node:os';
import { MEDIA_NICENESS } from '../media/run.ts';

/** The kernel's id of the calling thread (/proc/thread-self is /proc/<pid>/task/<tid>). */
function threadId(): number | undefined {
  try {
    return Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return undefined; // Not Linux: no per-thread niceness to set.
  }
}

/** Lowers the calling thread to MEDIA_NICENESS (never raises it); false where it cannot. */
export function lowerThisThread(): boolean {
  const tid = threadId();
  if (tid === undefined || !Number.isInteger(tid)) return false;
  try {
    os.setPriority(tid, Math.max(os.getPriority(tid), MEDIA_NICENESS));
    return true;
  } catch {
    return false; // Not allowed here: it runs at the server's priority.
  }
}
