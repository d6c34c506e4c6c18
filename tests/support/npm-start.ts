// `npm start` as OPERATIONS.md runs it: npm itself, in a process group of its own, its output
// read through a pipe by another process of the group (a shell's `npm start | cat`, as a person
// or a service manager keeps a log), with a temp DATA_DIR and a prebuilt web app newer than every
// source. Tests signal the whole group and look at every process in it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

export const INDEX_HTML =
  '<!doctype html><html lang="en"><body><div id="root"></div></body></html>';

export interface NpmStart {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** Everything the group printed so far (stdout and stderr). */
  output(): string;
  /** Signs the demo account in over HTTP; answers its bearer token. */
  signInDemo(): Promise<string>;
  /** The processes of the group that have not ended (zombies have ended). */
  alive(): string[];
  /** The process that reads the server's output from the pipe (`cat`). */
  readerPid(): number;
  /** SIGKILLs what is left and removes the temp folders. */
  cleanUp(): void;
}

/** A web root with an index.html dated a year ahead, so `npm start` rebuilds nothing. */
export function fakeWebBuild(dir: string): void {
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  const future = new Date(Date.now() + 365 * 24 * 3600e3);
  fs.utimesSync(path.join(dir, 'index.html'), future, future);
}

export async function waitFor(what: string, check: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function npmStart(
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<NpmStart> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-npm-start-'));
  const dataDir = path.join(tmp, 'data');
  const webRoot = path.join(tmp, 'web');
  fakeWebBuild(webRoot);
  const port = await freePort();
  // The reader ignores SIGTERM and ends when the output ends, so it shows what shutdown logs.
  const child = spawn('sh', ['-c', "npm start 2>&1 | (trap '' TERM; exec cat)"], {
    cwd: opts.cwd ?? path.resolve(import.meta.dirname, '..', '..'),
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_ROOT: webRoot,
      DATABASE_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'info',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const pgid = child.pid!;
  const alive = (): string[] => {
    try {
      return execFileSync('ps', ['-o', 'pid=,stat=,args=', '-g', String(pgid)], {
        encoding: 'utf8',
      })
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !/^\d+\s+Z/.test(l));
    } catch {
      return []; // ps exits 1 when the group has no process left
    }
  };
  try {
    await waitFor('the server to listen', () => output.includes('Server listening at'));
  } catch (err) {
    throw new Error(`${(err as Error).message}:\n${output}`, { cause: err });
  }
  return {
    child,
    url,
    dataDir,
    output: () => output,
    alive,
    readerPid() {
      const pid = execFileSync('pgrep', ['-g', String(pgid), '-x', 'cat'], { encoding: 'utf8' });
      return Number(pid.trim());
    },
    async signInDemo() {
      const credentials = fs.readFileSync(path.join(dataDir, 'demo-credentials.txt'), 'utf8');
      const password = /password: (\S+)/.exec(credentials)?.[1];
      const res = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@example.com', password }),
      });
      if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
      return ((await res.json()) as { access_token: string }).access_token;
    },
    cleanUp() {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
