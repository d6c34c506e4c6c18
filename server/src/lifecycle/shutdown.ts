// Stopping on SIGTERM or SIGINT, with a deadline: a request that never ends, a job that ignores
// its abort or a database that does not close must not keep the process alive (issue 14: a server
// was still alive an hour after SIGTERM). After the deadline the process logs what it was still
// waiting for and exits; a second signal exits at once.
import { logsWritten } from './log-stream.ts';

export const SHUTDOWN_DEADLINE_MS = 10_000;

export interface Stoppable {
  /** Stops everything in order; resolves when all is closed. */
  close(): Promise<void>;
  /** What close() still waits for, in words, for the log line at the deadline. */
  waitingFor(): string[];
}

export type LogLine = (level: 'info' | 'warn' | 'error', msg: string, fields?: object) => void;

async function exit(code: number): Promise<never> {
  await logsWritten(1000);
  process.exit(code);
}

export function stopOnSignals(
  target: Stoppable,
  log: LogLine,
  deadlineMs = SHUTDOWN_DEADLINE_MS,
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log('warn', `${signal} again: exiting without waiting`, { waitingFor: target.waitingFor() });
      void exit(1);
      return;
    }
    stopping = true;
    log('info', `${signal}: shutting down`, { deadlineMs });
    setTimeout(() => {
      log('error', 'shutdown deadline passed: exiting', { waitingFor: target.waitingFor() });
      void exit(1);
    }, deadlineMs);
    target.close().then(
      () => exit(0),
      (err: unknown) => {
        log('error', 'shutdown failed', { err: err instanceof Error ? err.message : String(err) });
        void exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
