// The scale-out deployment of the README, as an operator runs it (issue 41): a real PostgreSQL
// with pgvector, S3 (s3rver), one server with WORKER=off and two `npm run worker` processes,
// all started at once on an empty database and sharing nothing but the database, the bucket and
// the signing keys (each has its own DATA_DIR). Twelve videos are uploaded through the API; one
// worker is killed with SIGKILL in the middle of an analysis. Every video completes exactly once,
// both workers did some, the killed worker's video is finished by the other after the lease, and
// search, similar, people, trailer, report and downloads then work from the server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facePhoto, FRANCK_VIDEO, makeFaceVideo } from '../support/face-photos.ts';
import { makeVideo } from '../support/media.ts';
import { uploadPeopleImages } from '../support/people-images.ts';
import { startPostgres, type RealPostgres } from '../support/postgres.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo } from '../support/videos.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const LEASE_MS = 3000;
/** One distinct word per video, in what the uploader wrote about it: keyword search finds it. */
const WORDS = [
  'lighthouse',
  'volcano',
  'glacier',
  'orchard',
  'canyon',
  'meadow',
  'waterfall',
  'vineyard',
  'harbour',
  'monastery',
  'franck',
  'dupont',
];
const SOURCES = ['testsrc', 'smptebars', 'rgbtestsrc', 'testsrc2', 'mandelbrot', 'smptehdbars'];
const SUBTITLES = [
  { startMs: 500, endMs: 2000, text: 'Welcome to the lighthouse' },
  { startMs: 3000, endMs: 4500, text: 'The keeper climbs the stairs' },
];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'va-scale-out-'));
let postgres: RealPostgres | undefined;
let s3: TestS3 | undefined;
let server: TestServer | undefined;
let workers: WorkerProcess[] = [];
let token: string;
const ids: string[] = [];
let victim: { worker: WorkerProcess; video: string } | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it answers something other than undefined, or fails after `ms`. */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const logs = workers.map((w) => `--- ${w.name}\n${w.output.slice(-30).join('\n')}`);
      throw new Error(`timed out after ${ms} ms waiting for ${what}\n${logs.join('\n')}`);
    }
    await sleep(100);
  }
}

function api(method: string, urlPath: string, body?: unknown) {
  return server!.call(method, urlPath, { token, ...(body === undefined ? {} : { body }) });
}

const asset = (p: string) => fetch(`${server!.url}/assets/data/output/${p}`);

/** The upload dialog's calls: create, people images, the signed form to S3, the status. */
async function upload(
  file: string,
  i: number,
  opts: { people?: [string, string][]; trailer?: string } = {},
): Promise<string> {
  const filename = `${WORDS[i]}.mp4`;
  const { id, post_url } = await createVideo(server!, token, {
    filename,
    video_length: 7,
    about_this_video: `A visit to the ${WORDS[i]}`,
    ...(opts.trailer ? { trailer_instruction: opts.trailer } : {}),
  });
  if (opts.people) await uploadPeopleImages(server!, id, token, opts.people);
  const form = new FormData();
  for (const [k, v] of Object.entries(post_url.fields)) form.append(k, v);
  form.append('file', new Blob([fs.readFileSync(file)], { type: 'video/mp4' }), filename);
  const sent = await fetch(post_url.url, { method: 'POST', body: form });
  expect(sent.status).toBeLessThan(300);
  const status = await api('PUT', `/api/videos/${id}/update-status`, { status: 'in_progress' });
  expect(status.status).toBe(200);
  return id;
}

async function videoRows() {
  return server!.ctx.db.query<{ id: string; status: string; failure_reason: string | null }>(
    'SELECT id, status, failure_reason FROM videos WHERE id = ANY($1::uuid[])',
    [ids],
  );
}

async function stepsDone(video: string): Promise<number> {
  const [row] = await server!.ctx.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pipeline_steps WHERE video_id = $1',
    [video],
  );
  return row!.n;
}

beforeAll(async () => {
  const clips = await Promise.all([
    ...Array.from({ length: 10 }, (_, i) =>
      makeVideo({
        segments: [
          // Each clip its own: identical specs would be made twice at once under one name.
          { source: SOURCES[i % SOURCES.length]!, seconds: 2 + (i % 5) * 0.25 },
          { source: SOURCES[(i + 1) % SOURCES.length]!, seconds: 2.5, transition: { kind: 'cut' } },
          {
            source: SOURCES[(i + 2) % SOURCES.length]!,
            seconds: 2,
            transition: { kind: 'fade', seconds: 1 },
          },
        ],
        ...(i === 0 ? { subtitles: SUBTITLES } : {}),
        silentAudio: i % 2 === 0,
      }).then((m) => m.file),
    ),
    ...[10, 20].map((at) =>
      makeFaceVideo(
        [
          { video: FRANCK_VIDEO, fromSec: at, seconds: 4 },
          { source: 'testsrc', seconds: 3 },
        ],
        path.join(tmp, `franck-${at}.mp4`),
      ),
    ),
  ]);

  postgres = await startPostgres();
  s3 = await startTestS3();
  const shared = {
    DATABASE_URL: postgres.url,
    ...s3.env,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    ASSET_SIGNING_KEY: 'scale-out-asset-key-0123456789abcdef',
    UPLOAD_SIGNING_KEY: 'scale-out-upload-key-0123456789abcdef',
  };
  // The server reads the AWS variables and the keys from its environment, as the workers do.
  Object.assign(process.env, shared);
  const workerEnv = (name: string) => ({
    ...shared,
    DATA_DIR: fs.mkdtempSync(path.join(tmp, `${name}-`)),
    WORKER_LEASE_MS: String(LEASE_MS),
  });
  // All three at once on the empty database, as a deployment's processes start: the
  // migrations run once, whoever comes first.
  workers = [
    startWorkerProcess('worker-1', workerEnv('worker-1')),
    startWorkerProcess('worker-2', workerEnv('worker-2')),
  ];
  server = await startTestServer({ ...shared, WORKER: 'off' });
  await until('both workers to start', 240_000, async () =>
    workers.every((w) => w.output.some((l) => l.includes('"worker started"'))) ? true : undefined,
  );
  await server.createUser({ email: 'ops@example.com', password: 'password1', team: 'Ops' });
  token = await server.login('ops@example.com', 'password1');

  for (const [i, file] of clips.entries()) {
    const people: [string, string][] | undefined =
      i >= 10 ? [['Franck Dupont', facePhoto('franck_02888.jpg')]] : undefined;
    ids.push(await upload(file, i, { people, trailer: i === 1 ? 'the colour bars' : undefined }));
  }
}, 600_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await server?.close();
  await s3?.close();
  postgres?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('scale-out: PostgreSQL, S3, a server with WORKER=off and two npm run worker processes', () => {
  it('shares the videos between the workers and survives one killed mid-analysis', async () => {
    // The victim: a worker that has finished an analysis already and is in the middle of
    // another (its first steps stored, the last ones not yet).
    victim = await until('a worker in the middle of its second analysis', 600_000, async () => {
      for (const w of workers) {
        if (!w.done.some((d) => d.name === 'analyse-video')) continue;
        for (const video of w.running()) {
          const steps = await stepsDone(video);
          if (steps >= 2 && steps <= 5) return { worker: w, video };
        }
      }
      return undefined;
    });
    await victim.worker.kill();
    const survivor = workers.find((w) => w !== victim!.worker)!;

    // A video is completed by the analysis's last step; its job is marked done just after, and
    // the worker's log line follows.
    const analysesLogged = () =>
      workers.reduce((n, w) => n + w.done.filter((d) => d.name === 'analyse-video').length, 0);
    const jobs = await until('all twelve videos to complete', 900_000, async () => {
      const all = await videoRows();
      const failed = all.filter((r) => r.status === 'failed');
      if (failed.length) throw new Error(`failed: ${JSON.stringify(failed)}`);
      if (all.length !== 12 || all.some((r) => r.status !== 'completed')) return undefined;
      const analyses = await server!.ctx.db.query<{
        video_id: string;
        state: string;
        attempts: number;
      }>(
        `SELECT video_id, state, attempts FROM jobs WHERE name = 'analyse-video'
          AND video_id = ANY($1::uuid[])`,
        [ids],
      );
      const done = analyses.every((j) => j.state === 'done') && analysesLogged() >= 12;
      return done ? analyses : undefined;
    });

    // Exactly once: one analysis job per video, done; one "job done" across both workers.
    expect(jobs).toHaveLength(12);
    const finished = workers.flatMap((w) => w.done.filter((d) => d.name === 'analyse-video'));
    expect(finished.map((d) => d.video).sort()).toEqual([...ids].sort());

    // Both workers did some.
    for (const w of workers) {
      expect(w.done.filter((d) => d.name === 'analyse-video').length, w.name).toBeGreaterThan(0);
    }

    // The killed worker's video: not finished by it, finished by the survivor on a second
    // attempt that began after the lease had run out.
    const killed = victim.video;
    expect(victim.worker.done.some((d) => d.video === killed)).toBe(false);
    const retaken = survivor.started.find((s) => s.video === killed && s.name === 'analyse-video');
    expect(retaken?.attempt).toBe(2);
    expect(survivor.done.some((d) => d.video === killed && d.name === 'analyse-video')).toBe(true);
    expect(jobs.find((j) => j.video_id === killed)?.attempts).toBe(2);
    const firstTry = victim.worker.started.find((s) => s.video === killed)!;
    expect(retaken!.time - firstTry.time).toBeGreaterThanOrEqual(LEASE_MS);
    expect(await victim.worker.exited).toBe('SIGKILL');

    // Its results are whole and once: scenes numbered 0..n-1, no step stored twice.
    const [scenes] = await server!.ctx.db.query<{ n: number; max: number }>(
      'SELECT count(*)::int AS n, max(idx)::int AS max FROM scenes WHERE video_id = $1',
      [killed],
    );
    expect(scenes!.n).toBeGreaterThan(0);
    expect(scenes!.max).toBe(scenes!.n - 1);
  }, 1_000_000);

  it('answers search, similar, people, trailer, report and downloads from the server', async () => {
    const methods = ['sparse', 'dense', 'hybrid'];
    // Keyword, dense and hybrid search find each video by the word its uploader wrote.
    for (const [i, word] of WORDS.slice(0, 10).entries()) {
      for (const method of methods) {
        const q = new URLSearchParams({ description: word, searchMethod: method, kValue: '10' });
        const res = await api('GET', `/api/videos/find-similar-videos?${q}`);
        expect(res.status).toBe(200);
        expect(res.body.items[0]?.id, `${method} ${word}`).toBe(ids[i]);
      }
    }
    const scenes = await api(
      'GET',
      `/api/videos/find-similar-scenes?${new URLSearchParams({ description: 'Franck Dupont' })}`,
    );
    expect(scenes.status).toBe(200);
    expect(scenes.body.items[0]).toMatchObject({ matched_people: ['Franck Dupont'] });
    expect([ids[10], ids[11]]).toContain(scenes.body.items[0].id);

    // Similar videos to one of them: the others, not itself.
    const similar = await api('GET', `/api/videos/find-similar-videos?videoId=${ids[3]}`);
    expect(similar.status).toBe(200);
    expect(similar.body.items.length).toBeGreaterThan(0);
    expect(similar.body.items.every((v: { id: string }) => ids.includes(v.id))).toBe(true);

    // People: Franck, named by the people images, in both of his videos.
    const people = await api('GET', '/api/people');
    expect(people.status).toBe(200);
    const franck = people.body.items.find((p: { name: string }) => p.name === 'Franck Dupont');
    expect(franck).toMatchObject({ video_count: 2 });
    const face = await asset(franck.face_url);
    expect(face.status).toBe(200);

    // The trailer asked for at upload, made by a worker, served from S3.
    const withTrailer = await until('the trailer', 300_000, async () => {
      const res = await api('GET', `/api/videos/${ids[1]}`);
      return res.body.trailer_path && !res.body.is_trailer_creating ? res.body : undefined;
    });
    const trailer = await asset(withTrailer.trailer_path);
    expect(trailer.status).toBe(200);
    expect(trailer.headers.get('content-type')).toMatch(/^video\/mp4/);
    expect((await trailer.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    // A report asked for now, made by a worker, its page served by the server.
    const asked = await api('POST', `/api/videos/${ids[0]}/make-report`, {
      report_instruction: 'the lighthouse keeper',
    });
    expect(asked.status).toBe(200);
    const withReport = await until('the report', 300_000, async () => {
      const res = await api('GET', `/api/videos/${ids[0]}`);
      return res.body.report_path && !res.body.is_report_creating ? res.body : undefined;
    });
    const page = await fetch(
      `${server!.url}/api/videos/${ids[0]}/report/report.html` +
        withReport.report_path.slice(withReport.report_path.indexOf('?')),
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');

    // Downloads and stored files of a video with captions.
    const detail = withReport;
    expect(detail.captions_track).toMatchObject({ language: 'en' });
    const vtt = await asset(detail.downloads.captions_vtt);
    expect(vtt.status).toBe(200);
    expect(await vtt.text()).toContain('Welcome to the lighthouse');
    const csv = await asset(detail.downloads.scenes_csv);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const json = await asset(detail.downloads.analysis_json);
    expect(json.status).toBe(200);
    expect(((await json.json()) as { id: string }).id).toBe(ids[0]);
    const thumbnail = await asset(detail.video_thumbnail_path);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\/jpeg/);
    const frame = await asset(detail.output_data.scenes[0].frames[0].path);
    expect(frame.status).toBe(200);
  }, 900_000);
});
