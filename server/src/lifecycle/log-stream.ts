// Where the server's and the worker's JSON log lines go: stdout, through Node's process.stdout.
// Not pino's own stdout destination: at exit it flushes synchronously and retries for ever while
// the pipe is full or its reader is gone (EPIPE), so a server whose log reader had gone away
// never ended after SIGTERM (issue 14: threads asleep on a futex in sonic-boom's retry loop).
// process.stdout writes a pipe asynchronously and lets process.exit drop what is still queued.
// Lines are gathered and written once per turn of the event loop: one write call per line was
// a tenth of the server thread's time under load (issue 14).

/** Past this much unwritten output (a reader that stopped reading) lines are dropped, counted. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

let readerGone = false;
let dropped = 0;

// EPIPE: nobody reads stdout any more. Without a listener the error would end the process.
process.stdout.on('error', () => {
  readerGone = true;
});

/** Lines of this turn of the event loop, not yet handed to stdout. */
let pending: string[] = [];

function flush(): void {
  const lines = pending;
  pending = [];
  if (readerGone || lines.length === 0) return;
  if (process.stdout.writableLength > MAX_QUEUED_BYTES) {
    dropped += lines.length;
    return;
  }
  if (dropped > 0) {
    const msg = `${dropped} log lines dropped: stdout was not being read`;
    lines.unshift(`${JSON.stringify({ level: 40, time: Date.now(), msg })}\n`);
    dropped = 0;
  }
  process.stdout.write(lines.join(''));
}

// What the last turn logged is written before the process ends.
process.on('exit', flush);

function write(line: string): void {
  if (readerGone) return;
  if (pending.length === 0) setImmediate(flush);
  pending.push(line);
}

/** A destination for pino (Fastify's logger) and the worker's log: one JSON line per call. */
export const logStream = { write };

/** Resolves when what is queued for stdout is written, or after ms (a reader that stalls). */
export function logsWritten(ms: number): Promise<void> {
  flush();
  if (readerGone || process.stdout.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    process.stdout.once('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
