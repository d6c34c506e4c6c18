// The bench's side of the hostile server (_hostile-server.ts, its own process with `npm start`'s
// flags): starting it, reading its loop and main-thread figures, and sending it a scenario the
// way the app does (create, people pictures, signed upload, status) until its video ends.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { npmScriptNodeFlags } from './_npm-script-flags.ts';
import type { Scenario } from './_hostile-files.ts';

export interface Ready {
  url: string;
  token: string;
}

/** The node flags of `npm start`, then HOSTILE_NODE_FLAGS (for trials). */
export function serverNodeFlags(): string[] {
  return [
    ...npmScriptNodeFlags('start'),
    ...(process.env.HOSTILE_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
  ];
}

export interface ServerStats {
  longestBlockMs: number;
  mainThreadCpuMs: number;
  /** The main thread's longest garbage-collection pause, and their sum. */
  gcLongestMs: number;
  gcTotalMs: number;
}

export async function startServer(): Promise<{
  ready: Ready;
  pid: number;
  /** The server's loop and main-thread figures since the last call. */
  stats(): Promise<ServerStats>;
  stop(): void;
}> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-hostile-'));
  const readyFile = path.join(tmp, 'ready.json');
  const statsFile = path.join(tmp, 'stats.json');
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(), path.join(import.meta.dirname, '_hostile-server.ts')],
    {
      env: { ...process.env, READY_FILE: readyFile, STATS_FILE: statsFile },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const orphan = (): void => void child.kill('SIGKILL');
  process.once('exit', orphan);
  while (!fs.existsSync(readyFile)) {
    if (child.exitCode !== null) throw new Error(`hostile server exited (${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const ready = JSON.parse(fs.readFileSync(readyFile, 'utf8')) as Ready;
  return {
    ready,
    pid: child.pid!,
    async stats() {
      fs.rmSync(statsFile, { force: true });
      child.kill('SIGUSR2');
      while (!fs.existsSync(statsFile)) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 20)); // written in one call: let it finish
      return JSON.parse(fs.readFileSync(statsFile, 'utf8')) as ServerStats;
    },
    stop() {
      child.kill('SIGTERM');
      process.off('exit', orphan);
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** One JSON call to the API (it must answer 2xx). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bench reads arbitrary JSON
async function api(ready: Ready, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(ready.url + url, {
    method,
    headers: {
      authorization: `Bearer ${ready.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

export /** Sends the scenario; answers the people upload's status and when its video ended. */
async function send(
  ready: Ready,
  s: Scenario,
  onPeople: () => void = () => undefined,
): Promise<{ people: string; status: string }> {
  const video = await s.video();
  const created = await api(ready, 'POST', '/api/videos', {
    filename: video.filename,
    video_length: 3,
    video_date: '2024-05-06T07:08:09.123',
    about_this_video: s.name,
    output_language: 'en',
  });
  const { id, post_url } = created.data as {
    id: string;
    post_url: { url: string; fields: Record<string, string> };
  };
  let people = '-';
  if (s.people) {
    const form = new FormData();
    const list = await s.people();
    for (const p of list) form.append('names[]', p.name);
    for (const p of list)
      form.append(
        'images[]',
        new Blob([typeof p.body === 'string' ? p.body : new Uint8Array(p.body)]),
        p.filename,
      );
    const res = await fetch(`${ready.url}/api/videos/${id}/upload-people-images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ready.token}` },
      body: form,
    });
    await res.arrayBuffer();
    onPeople();
    people = String(res.status);
  }
  const form = new FormData();
  for (const [k, v] of Object.entries(post_url.fields)) form.append(k, v);
  form.append(
    'file',
    new Blob([new Uint8Array(video.bytes)], { type: 'video/mp4' }),
    video.filename,
  );
  const up = await fetch(post_url.url, { method: 'POST', body: form });
  if (up.status !== 201) throw new Error(`upload answered ${up.status}`);
  await api(ready, 'PUT', `/api/videos/${id}/update-status`, { status: 'in_progress' });
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    // A loaded server sheds reads with a 503 (load shedding): ask again.
    const res = await fetch(`${ready.url}/api/videos/${id}`, {
      headers: { authorization: `Bearer ${ready.token}` },
    });
    if (res.status === 503) continue;
    if (!res.ok) throw new Error(`GET /api/videos/${id}: ${res.status}`);
    const detail = (await res.json()) as {
      status?: string;
      failure_reason?: string | null;
      data?: { status?: string; failure_reason?: string | null };
    };
    const status = String(detail.status ?? detail.data?.status);
    if (status !== 'in_progress' && status !== 'uploading') {
      const reason = detail.failure_reason ?? detail.data?.failure_reason;
      return { people, status: reason ? `${status}: ${String(reason).slice(0, 60)}` : status };
    }
  }
}
