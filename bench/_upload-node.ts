// Node-side helpers of bench/upload.ts: the server child, curl as the reference client, and
// memory readings of a process.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

export const BENCH_LOGIN = { email: 'bench@example.com', password: 'benchpass1' };

export interface BenchServer {
  url: string;
  token: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The real server in a child process (so its memory is its own), serving the web build. */
export async function startServerChild(dataDir: string, webRoot: string): Promise<BenchServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '_upload-server.ts')],
    {
      env: { ...process.env, DATA_DIR: dataDir, WEB_ROOT: webRoot },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  return {
    url,
    token,
    pid: child.pid!,
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function api<T>(s: BenchServer, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(s.url + p, {
    method,
    headers: {
      authorization: `Bearer ${s.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

interface Created {
  data: { id: string; post_url: { url: string; fields: Record<string, string> } };
}

function createVideo(s: BenchServer): Promise<Created> {
  return api<Created>(s, 'POST', '/api/videos', {
    filename: 'curl.mp4',
    video_length: 3,
    video_date: '2024-01-01T00:00:00.000',
    output_language: 'en',
    about_this_video: '',
  });
}

/** curl posts the file to a fresh video's signed form; answers the seconds of that request. */
export async function curlForm(s: BenchServer, file: string): Promise<number> {
  const { data } = await createVideo(s);
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}'];
  for (const [k, v] of Object.entries(data.post_url.fields))
    args.push('--form-string', `${k}=${v}`);
  args.push('-F', `file=@${file};type=video/mp4`, data.post_url.url);
  const started = performance.now();
  const { stdout } = await promisify(execFile)('curl', args);
  const seconds = (performance.now() - started) / 1000;
  if (stdout.trim() !== '201') throw new Error(`curl upload answered ${stdout}`);
  return seconds;
}

/** A fresh video's multipart upload with every part signed, for a client that is not the queue. */
export async function signedParts(
  s: BenchServer,
  size: number,
): Promise<{ urls: string[]; partSize: number; abort: () => Promise<void> }> {
  const { data } = await createVideo(s);
  const base = `/api/videos/${data.id}/multipart`;
  const m = await api<{ upload_id: string; part_size: number }>(s, 'POST', base);
  const count = Math.ceil(size / m.part_size);
  const urls: string[] = [];
  for (let first = 1; first <= count; first += 100) {
    const numbers = Array.from({ length: Math.min(100, count - first + 1) }, (_, i) => first + i);
    const signed = await api<{ parts: { url: string }[] }>(s, 'POST', `${base}/sign-parts`, {
      upload_id: m.upload_id,
      part_numbers: numbers,
    });
    urls.push(...signed.parts.map((p) => p.url));
  }
  return {
    urls,
    partSize: m.part_size,
    // Drops the received parts (the bench keeps no copies on disk).
    abort: () => api(s, 'DELETE', `${base}?upload_id=${m.upload_id}`),
  };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
