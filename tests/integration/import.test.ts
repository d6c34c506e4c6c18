// The operator's import (issue 42): `npm run admin -- import` as its own process, beside a
// running server, on a folder (twice, --dry-run, --exclude) and on an S3 prefix.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintOperatorToken } from '../../server/src/auth/operator-token.ts';
import { localDateTime } from '../../server/src/import/run-import.ts';
import { createS3Client } from '../../server/src/storage/s3.ts';
import { runAdmin } from '../support/admin-cli.ts';
import { makeClip } from '../support/container-clips.ts';
import { makeVideo } from '../support/media.ts';
import { startServerOnS3 } from '../support/s3.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const sha = (file: string) =>
  crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Four different short videos (made once per machine). */
async function clips(): Promise<string[]> {
  const made = await Promise.all(
    ['testsrc', 'smptebars', 'rgbtestsrc', 'mandelbrot'].map((source) =>
      makeVideo({ segments: [{ source, seconds: 1 }], width: 160, height: 120, fps: 10 }),
    ),
  );
  return made.map((m) => m.file);
}

/** The server's address and secrets for the import process (its DATA_DIR holds secrets.json). */
const importEnv = (server: TestServer, extra: Record<string, string> = {}) => ({
  DATA_DIR: server.dataDir,
  HOST: '127.0.0.1',
  PORT: new URL(server.url).port,
  ...extra,
});

async function videosOf(server: TestServer, token: string) {
  const res = await server.call('GET', '/api/videos?size=100&sort=oldest', { token });
  return res.body.items as {
    filename: string;
    video_date: string;
    video_length: number;
    content_sha256: string | null;
    file_size: number;
    status: string;
  }[];
}

describe('import of a folder', () => {
  let server: TestServer;
  let token: string;
  let folder: string;
  let files: string[];
  const mtime = new Date('2019-03-04T05:06:07.000Z');

  beforeAll(async () => {
    server = await startTestServer({ WORKER: 'off' });
    await server.createUser({ email: 'op@example.com', password: 'password1', team: 'Archive' });
    token = await server.login('op@example.com', 'password1');
    files = await clips();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'va-import-'));
    fs.mkdirSync(path.join(folder, '2019', 'march'), { recursive: true });
    fs.mkdirSync(path.join(folder, 'raw'));
    fs.copyFileSync(files[0]!, path.join(folder, '2019', 'march', 'harbour.mp4'));
    fs.copyFileSync(files[1]!, path.join(folder, '2019', 'bars.MOV'));
    fs.copyFileSync(files[2]!, path.join(folder, 'colours.m4v'));
    // The same bytes twice in one folder: imported once.
    fs.copyFileSync(files[0]!, path.join(folder, 'harbour copy.mp4'));
    // Left out: other types, and the excluded folder.
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'shot list');
    fs.copyFileSync(files[3]!, path.join(folder, 'raw', 'take1.mp4'));
    // The MP4 reader finds no duration in a fragmented MP4's moov: ffprobe reads it.
    fs.copyFileSync(
      await makeClip({ seconds: 2, format: 'mp4', fragmented: true }),
      path.join(folder, 'fragmented.mp4'),
    );
    // Accepted by name, not a video (neither the MP4 reader nor ffprobe can read it).
    fs.writeFileSync(path.join(folder, 'broken.mp4'), crypto.randomBytes(5000));
    for (const name of ['2019/march/harbour.mp4', '2019/bars.MOV', 'colours.m4v']) {
      fs.utimesSync(path.join(folder, name), mtime, mtime);
    }
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    runAdmin(importEnv(server), 'import', '--team', 'Archive', '--user', 'op@example.com', ...args);

  it('imports each video once as the user, and lists what it left out and why', async () => {
    const res = await run('--about', 'The 2019 archive', '--exclude', 'raw', folder);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/4 imported, 1 already there, 1 left out, 1 unreadable, 0 failed/);
    expect(res.stdout).toMatch(/notes\.txt: not an mp4, m4v or mov file/);
    expect(res.stdout).toMatch(/broken\.mp4: not a video/);
    expect(res.stdout).toMatch(/harbour copy\.mp4 {2}\(same as 2019\/march\/harbour\.mp4\)/);
    expect(res.stdout).not.toMatch(/take1/);
    // Not a terminal: progress comes as plain lines.
    expect(res.stdout).toMatch(/importing 5\/5 files, .* done in/);

    const videos = await videosOf(server, token);
    expect(videos.map((v) => v.filename).sort()).toEqual([
      'bars.MOV',
      'colours.m4v',
      'fragmented.mp4',
      'harbour.mp4',
    ]);
    const harbour = videos.find((v) => v.filename === 'harbour.mp4')!;
    expect(harbour).toMatchObject({
      status: 'in_progress',
      video_date: localDateTime(mtime),
      content_sha256: sha(files[0]!),
      file_size: fs.statSync(files[0]!).size,
    });
    expect(harbour.video_length).toBeCloseTo(1, 0);
    const fragmented = videos.find((v) => v.filename === 'fragmented.mp4')!;
    expect(fragmented.video_length).toBeCloseTo(2, 0);
    const detail = await server.call('GET', '/api/videos', { token });
    expect(detail.body.total).toBe(4);
  });

  it('run again, imports nothing and says everything is there', async () => {
    const started = Date.now();
    const res = await run('--exclude', 'raw', folder);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/0 imported, 5 already there/);
    expect(res.stdout).toMatch(/2019\/bars\.MOV {2}\(as bars\.MOV\)/);
    expect((await videosOf(server, token)).length).toBe(4);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('--dry-run lists what it would import and what is there, and sends nothing', async () => {
    const res = await run('--dry-run', folder);
    expect(res.code).toBe(0);
    // Files are probed only when they are imported: the broken one is still a candidate.
    expect(res.stdout).toMatch(/Would import \(2\):\n {2}broken\.mp4\n {2}raw\/take1\.mp4\n/);
    expect(res.stdout).toMatch(/Dry run: 2 to import, 5 already there/);
    expect((await videosOf(server, token)).length).toBe(4);
  });

  it('refuses a wrong team, a missing folder and bad options in words', async () => {
    const wrongTeam = await runAdmin(
      importEnv(server),
      'import',
      '--team',
      'Other',
      '--user',
      'op@example.com',
      folder,
    );
    expect(wrongTeam.code).toBe(1);
    expect(wrongTeam.stderr).toMatch(/op@example\.com is not in team "Other"/);
    const missing = await run(path.join(folder, 'nowhere'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Error: .*nowhere/);
    const bad = await run('--concurrency', '0', folder);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--concurrency must be a whole number from 1 to 32/);
  });

  it("the import's token reaches only the import's calls, and only while it is fresh", async () => {
    const secrets = server.ctx.secrets;
    const who = { email: 'op@example.com', team: 'Archive' };
    const fresh = mintOperatorToken(secrets, { ...who, nowMs: Date.now() });
    const files = { files: [{ key: 'k', size: 1 }] };
    const ok = await server.call('POST', '/api/videos/check-files', { token: fresh, body: files });
    expect(ok.status).toBe(200);
    for (const [method, url] of [
      ['GET', '/api/profile'],
      ['GET', '/api/videos'],
      ['POST', '/api/logout'],
    ] as const) {
      const res = await server.call(method, url, { token: fresh });
      expect(res.status, url).toBe(403);
    }
    const old = mintOperatorToken(secrets, { ...who, nowMs: Date.now() - 16 * 60_000 });
    expect(
      (await server.call('POST', '/api/videos/check-files', { token: old, body: files })).status,
    ).toBe(401);
    const forged = mintOperatorToken(
      { uploadKey: Buffer.from('another installation') },
      { ...who, nowMs: Date.now() },
    );
    expect(
      (await server.call('POST', '/api/videos/check-files', { token: forged, body: files })).status,
    ).toBe(401);
  });

  it('refuses more than 10,000 files in words, before sending anything', async () => {
    const big = fs.mkdtempSync(path.join(os.tmpdir(), 'va-import-big-'));
    try {
      for (let i = 0; i <= 10_000; i++) fs.writeFileSync(path.join(big, `${i}.mp4`), 'x');
      const res = await run(big);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/Refused: 10,001 files to import .* at most 10,000/);
      expect((await videosOf(server, token)).length).toBe(4);
    } finally {
      fs.rmSync(big, { recursive: true, force: true });
    }
  });
});

describe('import of an S3 prefix, into a server on S3', () => {
  let env: Awaited<ReturnType<typeof startServerOnS3>>;
  let files: string[];

  beforeAll(async () => {
    env = await startServerOnS3();
    files = await clips();
    const client = createS3Client({
      bucket: env.s3.bucket,
      region: 'us-east-1',
      endpoint: env.s3.endpoint,
    });
    const put = (key: string, body: Buffer) =>
      client.send(new PutObjectCommand({ Bucket: env.s3.bucket, Key: key, Body: body }));
    await put('archive/2020/a.mp4', fs.readFileSync(files[0]!));
    await put('archive/2020/deep/b.mov', fs.readFileSync(files[1]!));
    await put('archive/readme.pdf', Buffer.from('%PDF'));
    await put('archive-old/c.mp4', fs.readFileSync(files[2]!));
  });
  afterAll(() => env?.close());

  const run = (...args: string[]) =>
    runAdmin(
      importEnv(env.server, env.s3.env),
      'import',
      '--team',
      'Test team',
      '--user',
      'a@example.com',
      ...args,
    );

  it('imports the prefix (and not its neighbours), then nothing the second time', async () => {
    const first = await run(`s3://${env.s3.bucket}/archive`);
    expect(first.stderr).not.toMatch(/Error/);
    expect(first.stdout).toMatch(/2 imported, 0 already there, 1 left out/);
    expect(first.stdout).toMatch(/readme\.pdf: not an mp4, m4v or mov file/);
    const videos = await videosOf(env.server, env.token);
    expect(videos.map((v) => v.filename).sort()).toEqual(['a.mp4', 'b.mov']);
    // The import sent the digest it took while copying the object down.
    expect(videos.find((v) => v.filename === 'a.mp4')!.content_sha256).toBe(sha(files[0]!));

    const second = await run(`s3://${env.s3.bucket}/archive/`);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/0 imported, 2 already there/);
    expect((await videosOf(env.server, env.token)).length).toBe(2);
  });
});
