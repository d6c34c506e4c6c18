// Upload figures of issue 3, against a real server in a child process (STORAGE=local):
//  1. throughput: a BENCH_UPLOAD_MB file (default 1024) through the resumable multipart protocol
//     with Node fetch, part after part as the client queue sends them, versus curl posting the
//     same file to the single signed form; both in MB/s and the ratio (target >= 0.9);
//  2. server memory: VmRSS growth while it receives a BENCH_RSS_MB upload (default 2048), < 100 MB;
//  3. resume cost: a part interrupted midway, then list-parts and resume: parts re-sent (<= 1).
// Run: node --import tsx bench/upload.ts  (quick: BENCH_UPLOAD_MB=128 BENCH_RSS_MB=256 ...)
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const MB = 1024 * 1024;
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const RSS_MB = Number(process.env.BENCH_RSS_MB ?? 2048);
const CONCURRENCY = Number(process.env.BENCH_PART_CONCURRENCY ?? 1);

interface Server {
  url: string;
  token: string;
  pid: number;
  child: ChildProcess;
}

async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '_upload-server.ts')],
    { env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  return { url, token, pid: child.pid!, child };
}

async function api<T>(s: Server, method: string, p: string, body?: unknown): Promise<T> {
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

function createVideo(s: Server): Promise<Created> {
  return api<Created>(s, 'POST', '/api/videos', {
    filename: 'bench.mp4',
    video_length: 60,
    video_date: '2024-01-01T00:00:00.000',
    output_language: 'en',
    about_this_video: '',
  });
}

/** Random bytes (incompressible, no sparse shortcuts), written in 16 MiB blocks. */
async function makeFile(file: string, mb: number): Promise<void> {
  const out = fs.createWriteStream(file);
  const block = crypto.randomBytes(16 * MB);
  for (let written = 0; written < mb * MB; written += block.length) {
    const chunk = block.subarray(0, Math.min(block.length, mb * MB - written));
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

async function curlForm(s: Server, file: string): Promise<number> {
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

interface Multipart {
  videoId: string;
  uploadId: string;
  partSize: number;
  parts: number;
}

async function startMultipart(s: Server, size: number): Promise<Multipart> {
  const { data } = await createVideo(s);
  const m = await api<{ upload_id: string; part_size: number }>(
    s,
    'POST',
    `/api/videos/${data.id}/multipart`,
  );
  return {
    videoId: data.id,
    uploadId: m.upload_id,
    partSize: m.part_size,
    parts: Math.ceil(size / m.part_size),
  };
}

async function signParts(s: Server, m: Multipart, numbers: number[]): Promise<Map<number, string>> {
  const urls = new Map<number, string>();
  for (let i = 0; i < numbers.length; i += 100) {
    const r = await api<{ parts: { part_number: number; url: string }[] }>(
      s,
      'POST',
      `/api/videos/${m.videoId}/multipart/sign-parts`,
      { upload_id: m.uploadId, part_numbers: numbers.slice(i, i + 100) },
    );
    for (const p of r.parts) urls.set(p.part_number, p.url);
  }
  return urls;
}

/** Sends the given parts (Blob slices of the file, as the browser sends a File's slices). */
async function sendParts(s: Server, m: Multipart, blob: Blob, numbers: number[]): Promise<void> {
  const urls = await signParts(s, m, numbers);
  const queue = [...numbers];
  const worker = async () => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      const body = blob.slice((n - 1) * m.partSize, n * m.partSize);
      const res = await fetch(urls.get(n)!, { method: 'PUT', body });
      if (res.status !== 200) throw new Error(`part ${n}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function completeMultipart(s: Server, m: Multipart): Promise<number> {
  const listed = await api<{ parts: { part_number: number; etag: string }[] }>(
    s,
    'GET',
    `/api/videos/${m.videoId}/multipart/list-parts?upload_id=${m.uploadId}`,
  );
  const done = await api<{ size: number }>(
    s,
    'POST',
    `/api/videos/${m.videoId}/multipart/complete`,
    {
      upload_id: m.uploadId,
      parts: listed.parts.map((p) => ({ part_number: p.part_number, etag: p.etag })),
    },
  );
  return done.size;
}

async function multipartUpload(s: Server, file: string): Promise<number> {
  const blob = await fs.openAsBlob(file);
  const started = performance.now();
  const m = await startMultipart(s, blob.size);
  await sendParts(
    s,
    m,
    blob,
    Array.from({ length: m.parts }, (_, i) => i + 1),
  );
  const size = await completeMultipart(s, m);
  if (size !== blob.size) throw new Error(`completed ${size} bytes of ${blob.size}`);
  return (performance.now() - started) / 1000;
}

function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function rssWhile<T>(pid: number, work: Promise<T>): Promise<{ base: number; peak: number }> {
  const base = rssKb(pid);
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 50);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return { base, peak: Math.max(peak, rssKb(pid)) };
}

/** Interrupts part 3 midway, then resumes from list-parts; answers the parts sent twice. */
async function resumeCost(s: Server, file: string): Promise<{ resent: number; parts: number }> {
  const blob = await fs.openAsBlob(file);
  const m = await startMultipart(s, blob.size);
  const sends = new Map<number, number>();
  const count = (n: number) => sends.set(n, (sends.get(n) ?? 0) + 1);
  const first = [1, 2].filter((n) => n <= m.parts);
  await sendParts(s, m, blob, first);
  first.forEach(count);
  if (m.parts >= 3) {
    const url = (await signParts(s, m, [3])).get(3)!;
    const abort = new AbortController();
    const part = blob.slice(2 * m.partSize, 3 * m.partSize);
    // A body that stops halfway and the connection that drops, as when the network goes.
    const reader = part
      .slice(0, Math.floor(part.size / 2))
      .stream()
      .getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const r = await reader.read();
        if (!r.done) controller.enqueue(r.value);
        else setTimeout(() => abort.abort(), 100);
      },
    });
    count(3);
    await fetch(url, {
      method: 'PUT',
      body,
      signal: abort.signal,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
  }
  // Resume: ask the server what it has and send only the rest.
  const listed = await api<{ parts: { part_number: number }[] }>(
    s,
    'GET',
    `/api/videos/${m.videoId}/multipart/list-parts?upload_id=${m.uploadId}`,
  );
  const have = new Set(listed.parts.map((p) => p.part_number));
  const missing = Array.from({ length: m.parts }, (_, i) => i + 1).filter((n) => !have.has(n));
  await sendParts(s, m, blob, missing);
  missing.forEach(count);
  const size = await completeMultipart(s, m);
  if (size !== blob.size) throw new Error('resumed upload has the wrong size');
  return { resent: [...sends.values()].filter((c) => c > 1).length, parts: m.parts };
}

export async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-upload-'));
  const server = await startServer(path.join(tmp, 'data'));
  try {
    const file = path.join(tmp, 'upload.bin');
    await makeFile(file, UPLOAD_MB);
    // Warm-up (page cache, JIT) with a small file, then the measured runs.
    const warm = path.join(tmp, 'warm.bin');
    await makeFile(warm, 32);
    await curlForm(server, warm);
    await multipartUpload(server, warm);

    const curlS = await curlForm(server, file);
    const partsS = await multipartUpload(server, file);
    const curlRate = UPLOAD_MB / curlS;
    const partsRate = UPLOAD_MB / partsS;
    console.log(`throughput, ${UPLOAD_MB} MB file (parts of 16 MiB, ${CONCURRENCY} at a time):`);
    console.log(`  curl, single signed form : ${curlRate.toFixed(1)} MB/s (${curlS.toFixed(2)} s)`);
    console.log(
      `  fetch, multipart parts   : ${partsRate.toFixed(1)} MB/s (${partsS.toFixed(2)} s)`,
    );
    console.log(
      `  ratio parts / curl       : ${(partsRate / curlRate).toFixed(2)} (target >= 0.90)`,
    );
    fs.rmSync(file);

    const big = path.join(tmp, 'rss.bin');
    await makeFile(big, RSS_MB);
    const formRss = await rssWhile(server.pid, curlForm(server, big));
    const partsRss = await rssWhile(server.pid, multipartUpload(server, big));
    for (const [name, r] of [
      ['single form', formRss],
      ['multipart', partsRss],
    ] as const) {
      const growth = (r.peak - r.base) / 1024;
      console.log(
        `server RSS receiving ${RSS_MB} MB (${name}): ${(r.base / 1024).toFixed(0)} -> ` +
          `${(r.peak / 1024).toFixed(0)} MB, growth ${growth.toFixed(1)} MB (target < 100)`,
      );
    }
    fs.rmSync(big);

    const resumeFile = path.join(tmp, 'resume.bin');
    await makeFile(resumeFile, 80);
    const resume = await resumeCost(server, resumeFile);
    console.log(
      `resume cost: interrupted in part 3 of ${resume.parts}; parts re-sent: ${resume.resent} (target <= 1)`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
