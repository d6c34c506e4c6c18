// The request log never records secrets (issue 15 "Logs"): reset tokens and link signatures in
// query strings, bearer tokens and cookies. Read from the server's real log stream, which the
// jobs write to as well: one logger, one level, one redaction (issue 32).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openTestDb } from '../support/test-db.ts';
import { REDACTED } from '../../server/src/lifecycle/logger.ts';
import { createContext, type AppContext } from '../../server/src/context.ts';
import { JobName } from '../../server/src/jobs/names.ts';
import { enqueue } from '../../server/src/jobs/queue.ts';
import { JobWorker } from '../../server/src/jobs/worker.ts';

const SECRET = 'S3CR3Tvalue';
let app: FastifyInstance;
let ctx: AppContext;
let dataDir: string;
const lines: string[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-log-'));
  const config = loadConfig({ DATA_DIR: dataDir, WEB_ROOT: dataDir, LOG_LEVEL: 'info' });
  const db = await openTestDb();
  ctx = await createContext(config, db, { write: (line) => void lines.push(line) });
  app = await buildApp(ctx);
}, 120_000);
afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const VIDEO = '0b6d6a34-5e0f-4c8e-9d51-2f3b7f0c9a11';

describe('the request log', () => {
  it.each([
    ['a reset link', `/reset-password?resetToken=${SECRET}`],
    ['a reset call in snake case', `/api/reset-password?reset_token=${SECRET}&lang=en`],
    ['an asset link', `/assets/data/output/${VIDEO}/thumbnail.jpg?exp=1999999999&sig=${SECRET}`],
    ['a report link', `/api/videos/${VIDEO}/report/report.html?exp=1&sig=${SECRET}`],
    ['an upload part link', `/api/uploads/parts/u1/1?expires=1&signature=${SECRET}`],
    ['an S3-style link', `/x?X-Amz-Credential=${SECRET}&X-Amz-Signature=${SECRET}`],
  ])('keeps the path but not the secret of %s', async (_name, url) => {
    lines.length = 0;
    await app.inject({ method: 'GET', url });
    const logged = lines.join('');
    expect(logged).toContain(url.split('?')[0]!);
    expect(logged).toContain(REDACTED);
    expect(logged).not.toContain(SECRET);
  });

  it('writes one line per answered request, with its URL, status and time', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/api/videos?page=2' });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/videos?page=2' },
      res: { statusCode: 401 },
    });
    expect(logged[0]!.responseTime).toEqual(expect.any(Number));
  });

  it('keeps harmless query parameters readable', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/api/videos?page=2&size=10&sig=x' });
    expect(lines.join('')).toContain(`/api/videos?page=2&size=10&sig=${REDACTED}`);
  });

  it('records no bearer token or cookie, also when the call fails', async () => {
    lines.length = 0;
    await app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { authorization: `Bearer ${SECRET}`, cookie: `session=${SECRET}` },
    });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(SECRET);
  });
});

describe('the jobs log through the same logger', () => {
  const parsed = (): Record<string, unknown>[] =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes the job worker lines to the same stream, naming the worker, at LOG_LEVEL', async () => {
    lines.length = 0;
    const videoId = crypto.randomUUID();
    await enqueue(ctx, JobName.AnalyseVideo, videoId);
    const worker = new JobWorker(ctx, {
      handlers: [{ name: JobName.AnalyseVideo, run: async () => undefined }],
    });
    expect(await worker.runOnce()).toBe(true);
    expect(parsed()).toContainEqual(
      expect.objectContaining({ level: 30, component: 'worker', msg: 'job done', video: videoId }),
    );
    ctx.log.child({ component: 'worker' }).debug('below LOG_LEVEL');
    expect(lines.join('')).not.toContain('below LOG_LEVEL');
  });

  it('keeps secrets out of every part of the process, as out of the request log', () => {
    lines.length = 0;
    ctx.log.child({ component: 'worker' }).warn(
      {
        req: { method: 'GET', url: `/api/reset-password?reset_token=${SECRET}` },
        headers: { authorization: `Bearer ${SECRET}` },
      },
      'a line with a request in it',
    );
    expect(lines.join('')).toContain('/api/reset-password?reset_token=');
    expect(lines.join('')).not.toContain(SECRET);
  });
});
