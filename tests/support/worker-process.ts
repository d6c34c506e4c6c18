// A real `npm run worker` process for the scale-out tests and benches: spawned in a process group
// of its own (so SIGKILL takes npm, node and the ffmpeg it runs at once, as a machine that dies),
// its JSON log lines read as they come, and the jobs it started and finished kept from them.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface JobLogLine {
  job: string;
  name: string;
  video: string | null;
  attempt: number;
  /** Milliseconds since the epoch, from the log line. */
  time: number;
}

export interface WorkerProcess {
  readonly name: string;
  readonly proc: ChildProcess;
  /** "job started" lines, in order. */
  readonly started: JobLogLine[];
  /** "job done" lines, in order. */
  readonly done: JobLogLine[];
  /** The worker's own node process (npm's grandchild), once it has started. */
  readonly pid: () => number | undefined;
  /** Every line it wrote (stdout and stderr), for a failure's message. */
  readonly output: string[];
  /** Resolves once the worker has logged "worker started". */
  readonly ready: Promise<void>;
  /** Resolves with the exit code or signal once it ended. */
  readonly exited: Promise<string>;
  /** Analyses it started and has not finished (the job's video ids). */
  running(name?: string): string[];
  /** SIGKILL to the whole process group; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (jobs go back to the queue); SIGKILL after `ms`. */
  stop(ms?: number): Promise<void>;
}

/**
 * `npm run worker` with `env` (on top of this process's), its log at info. `cpus`: held to
 * those cores with `taskset -c` (util-linux), as an operator would with a container's cpuset;
 * its ffmpeg runs inherit them.
 */
export function startWorkerProcess(
  name: string,
  env: Record<string, string>,
  opts: { cpus?: string } = {},
): WorkerProcess {
  const npm = ['npm', 'run', '--silent', 'worker'];
  const [cmd, ...args] = opts.cpus === undefined ? npm : ['taskset', '-c', opts.cpus, ...npm];
  const proc = spawn(cmd!, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const started: JobLogLine[] = [];
  const done: JobLogLine[] = [];
  const output: string[] = [];
  let nodePid: number | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const exited = new Promise<string>((resolve) =>
    proc.once('exit', (code, signal) => resolve(signal ?? String(code))),
  );
  const read = (stream: NodeJS.ReadableStream): void => {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        if (!line.startsWith('{')) continue;
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (entry.msg === 'worker started') {
          // Worker ids are host:pid:random (server/src/jobs/worker.ts).
          const id = (entry.workers as string[] | undefined)?.[0] ?? '';
          nodePid = Number(id.split(':').at(-2)) || undefined;
          markReady();
        }
        const job = {
          job: String(entry.job),
          name: String(entry.name),
          video: (entry.video as string | null) ?? null,
          attempt: Number(entry.attempt),
          time: Number(entry.time),
        };
        if (entry.msg === 'job started') started.push(job);
        if (entry.msg === 'job done') done.push(job);
      }
    });
  };
  read(proc.stdout!);
  read(proc.stderr!);
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-proc.pid!, signal);
    } catch {
      // Already gone.
    }
  };
  const gone = () => proc.exitCode !== null || proc.signalCode !== null;
  return {
    name,
    proc,
    started,
    done,
    output,
    pid: () => nodePid,
    ready,
    exited,
    running(jobName = 'analyse-video') {
      const finished = new Set(done.map((d) => d.job));
      return started
        .filter((s) => s.name === jobName && !finished.has(s.job) && s.video)
        .map((s) => s.video!);
    },
    async kill() {
      signalGroup('SIGKILL');
      await exited;
    },
    async stop(ms = 15_000) {
      if (gone()) {
        signalGroup('SIGKILL');
        return;
      }
      // To npm alone, which hands it on to the worker: a second SIGTERM would make it exit at once.
      proc.kill('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), ms);
      await exited;
      clearTimeout(timer);
      // ffmpeg children of a worker that ended on its own are gone with it; make sure.
      signalGroup('SIGKILL');
    },
  };
}
