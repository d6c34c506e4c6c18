// Stopping on SIGTERM or SIGINT, with a deadline: a request that never ends, a job that ignores
// its abort or a database that does not close must not keep the process alive (issue 14: a server
// was still alive an hour after SIGTERM). After the deadline the process logs what it was still
// waiting for and exits; a second signal exits at once.
import { logsWritten } from './log-stream.ts';
import type { Logger } from './logger.ts';

export const SHUTDOWN_DEADLINE_MS = 10_000;

export interface Stoppable {
  /** Stops everything in order; resolves when all is closed. */
  close(): Promise<void>;
  /** What close() still waits for, in words, for the log line at the deadline. */
  waitingFor(): string[];
}

async function exit(code: number): Promise<never> {
  await logsWritten(1000);
  process.exit(code);
}

export function stopOnSignals(
  target: Stoppable,
  log: Logger,
  deadlineMs = SHUTDOWN_DEADLINE_MS,
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn({ waitingFor: target.waitingFor() }, `${signal} again: exiting without waiting`);
      void exit(1);
      return;
    }
    stopping = true;
    log.info({ deadlineMs }, `${signal}: shutting down`);
    setTimeout(() => {
      log.error({ waitingFor: target.waitingFor() }, 'shutdown deadline passed: exiting');
      void exit(1);
    }, deadlineMs);
    target.close().then(
      () => exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        void exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
