// Reports for real: seeded videos with known scenes and captions (one carrying markup), made by
// the server's inline worker, opened the way the app opens them (a signed link, no bearer) and
// refused to everyone else. The openai provider is exercised against the protocol test server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/src/context.ts';
import { productHandlers } from '../../server/src/jobs/handlers.ts';
import { DEFAULT_MAX_ATTEMPTS } from '../../server/src/jobs/queue.ts';
import { JobWorker } from '../../server/src/jobs/worker.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/openai-server.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let ctx: AppContext;
let token: string;
let otherToken: string;
let teamId: string;

const XSS = '<script>alert("x")</script>';
const SCENES = [
  { description: 'A test pattern with a moving counter', captions: 'Counting down' },
  { description: 'A red sports car drives along the coast road', captions: 'Look at that car' },
  { description: `Colour bars ${XSS}`, captions: '<img src=x onerror=alert(1)>' },
  { description: 'The red car parks in front of the harbour', captions: 'We have arrived' },
];

beforeAll(async () => {
  server = await startTestServer();
  ctx = server.ctx;
  const owner = await server.createUser({ email: 'report@example.com', password: 'password1' });
  await server.createUser({ email: 'rival@example.com', password: 'password1', team: 'Rivals' });
  teamId = await teamOf(ctx, owner);
  token = await server.login('report@example.com', 'password1');
  otherToken = await server.login('rival@example.com', 'password1');
});

afterAll(async () => {
  await closeServer(server);
});

/**
 * A file response can end on the server a moment after the client has read all of it; a close
 * in that moment waits for the keep-alive timeout (72 s). Nothing is in flight here any more.
 */
async function closeServer(s: TestServer | undefined): Promise<void> {
  s?.app.server.closeAllConnections();
  await s?.close();
}

async function makeReport(
  s: TestServer,
  t: string,
  id: string,
  instruction: string,
): Promise<{ report_path: string }> {
  const res = await s.call('POST', `/api/videos/${id}/make-report`, {
    token: t,
    body: { report_instruction: instruction },
  });
  expect(res.status).toBe(200);
  expect(res.body.is_report_creating).toBe(true);
  const until = Date.now() + 60_000;
  for (;;) {
    const video = await s.call('GET', `/api/videos/${id}`, { token: t });
    if (!video.body.is_report_creating) return video.body;
    if (Date.now() > until) throw new Error('report still being created');
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A GET whose body is always read: an unread body keeps the connection busy and the close waits. */
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The report page URL the app opens: the spec's path with report_path's signature. */
const pageUrl = (s: TestServer, id: string, reportPath: string): string =>
  `${s.url}/api/videos/${id}/report/report.html${reportPath.slice(reportPath.indexOf('?'))}`;

describe('make-report', () => {
  it('answers the instruction with the matching scenes, lists every scene and escapes all text', async () => {
    const { id } = await seedCompletedVideo(ctx, {
      teamId,
      title: `Coast drive ${XSS}`,
      tags: ['cars', '<b>coast</b>'],
      scenes: SCENES,
      captions: [
        { start_time: '00:00:02.500', end_time: '00:00:03.500', text: 'Look at that car' },
        {
          start_time: '00:00:05.000',
          end_time: '00:00:06.000',
          text: '<img src=x onerror=alert(1)>',
        },
      ],
    });
    const video = await makeReport(server, token, id, 'Where is the red car? <b>now</b>');
    expect(video.report_path).toMatch(new RegExp(`^${id}/report-\\d+\\.html\\?exp=\\d+&sig=`));

    // Opened in a new tab: no bearer header, only the signed query.
    const res = await get(pageUrl(server, id, video.report_path));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).toContain('img-src data:');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = res.text;

    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    // The answer: the two matching scenes, quoted with their times.
    expect(html).toContain('2 scenes match this instruction');
    expect(html).toContain('Scene 1 · 00:00:02.000 – 00:00:04.000');
    expect(html).toContain('Scene 3 · 00:00:06.000 – 00:00:08.000');
    expect(html).not.toContain('Scene 0 · ');
    expect(html).toContain('“Look at that car”');
    // Every scene in the table, with an embedded picture; nothing loaded from elsewhere.
    for (let i = 0; i < SCENES.length; i++) expect(html).toContain(`<tr id="scene-${i}">`);
    expect(html.match(/<img src="data:image\/jpeg;base64,/g)?.length).toBeGreaterThanOrEqual(4);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    // Facts, tags, captions; every inserted text escaped.
    expect(html).toContain('clip.mp4');
    expect(html).toContain('2024/05/01');
    expect(html).toContain('00:00:08');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Coast drive &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;coast&lt;/b&gt;');
    expect(html).toContain('Where is the red car? &lt;b&gt;now&lt;/b&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('@media print');

    // The same signed path opens through the asset route too.
    const asset = await get(`${server.url}/assets/data/output/${video.report_path}`);
    expect(asset.status).toBe(200);
    // And with the bearer token of the team.
    const bearer = await get(`${server.url}/api/videos/${id}/report/report.html`, {
      authorization: `Bearer ${token}`,
    });
    expect(bearer.status).toBe(200);
  });

  it('is refused to another team, to a tampered or expired signature and without credentials', async () => {
    const { id } = await seedCompletedVideo(ctx, { teamId, scenes: SCENES });
    const video = await makeReport(server, token, id, 'red car');
    const url = pageUrl(server, id, video.report_path);
    const base = `${server.url}/api/videos/${id}/report/report.html`;

    expect((await get(base)).status).toBe(401);
    const rival = await get(base, { authorization: `Bearer ${otherToken}` });
    expect(rival.status).toBe(404);
    const tampered = url.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await get(tampered)).status).toBe(403);
    const later = url.replace(/exp=(\d+)/, (_, e: string) => `exp=${Number(e) + 3600}`);
    expect((await get(later)).status).toBe(403);
    const other = await seedCompletedVideo(ctx, { teamId, scenes: SCENES });
    expect((await get(pageUrl(server, other.id, video.report_path))).status).toBe(404);
    expect(
      (
        await server.call('POST', `/api/videos/${id}/make-report`, {
          token: otherToken,
          body: { report_instruction: 'red car' },
        })
      ).status,
    ).toBe(404);

    const realNow = ctx.now;
    ctx.now = () => realNow() + 8 * 60 * 60 * 1000;
    try {
      const expired = await get(url);
      expect(expired.status).toBe(403);
      expect(JSON.parse(expired.text)).toEqual({ detail: 'Link expired' });
    } finally {
      ctx.now = realNow;
    }
  });

  it('writes the report in Japanese for a Japanese video and says when nothing matches', async () => {
    const { id } = await seedCompletedVideo(ctx, {
      teamId,
      outputLanguage: 'ja',
      scenes: [{ description: '港に停まる赤い車', captions: 'こんにちは' }],
    });
    const video = await makeReport(server, token, id, 'zebra crossing');
    const html = (await get(pageUrl(server, id, video.report_path))).text;
    expect(html).toMatch(/<html lang="ja">/);
    expect(html).toContain('動画レポート');
    expect(html).toContain('この指示の言葉に合うシーンは見つかりませんでした');
    expect(html).toContain('港に停まる赤い車');
  });

  it('refuses a second request while one runs and validates the instruction', async () => {
    const { id } = await seedCompletedVideo(ctx, { teamId, scenes: SCENES });
    const post = (body: unknown) =>
      server.call('POST', `/api/videos/${id}/make-report`, { token, body });
    const [a, b] = await Promise.all([
      post({ report_instruction: 'red car' }),
      post({ report_instruction: 'blue sea' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((a.status === 409 ? a : b).body.detail).toMatch(/report is already being created/);
    for (const body of [{}, { report_instruction: '' }, { report_instruction: 'y'.repeat(501) }]) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'report_instruction']);
    }
    expect((await post({ report_instruction: 'z'.repeat(500) })).status).not.toBe(422);
  });
});

describe('make-report with the openai provider', () => {
  let ai: FakeOpenAi;
  let aiServer: TestServer;
  let worker: JobWorker;

  beforeAll(async () => {
    ai = await startFakeOpenAi();
    // The product's handlers in a worker that retries at once (the queue's own backoff is
    // minutes long), so a job that fails for good does so within the test.
    aiServer = await startTestServer({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: ai.url,
      WORKER: 'off',
      LOG_LEVEL: 'silent',
    });
    worker = new JobWorker(aiServer.ctx, {
      handlers: productHandlers(),
      backoffMs: () => 0,
    });
    worker.start();
  });

  afterAll(async () => {
    await worker?.stop();
    await closeServer(aiServer);
    await ai?.close();
  });

  it('shows a written answer grounded in the scenes, citing them', async () => {
    const owner = await aiServer.createUser({ email: 'ai@example.com', password: 'password1' });
    const t = await aiServer.login('ai@example.com', 'password1');
    const { id } = await seedCompletedVideo(aiServer.ctx, {
      teamId: await teamOf(aiServer.ctx, owner),
      scenes: SCENES,
    });
    const video = await makeReport(aiServer, t, id, 'Where is the red car?');
    const html = (await get(pageUrl(aiServer, id, video.report_path))).text;
    expect(html).toContain('<p>Model answer to &lt;Where is the red car?&gt;.</p>');
    expect(html).toContain('<p>See scene 1, scene 3.</p>');
    expect(html).toContain('Scene 1 · 00:00:02.000 – 00:00:04.000');
    expect(html).toContain('Scene 3 · 00:00:06.000 – 00:00:08.000');
    expect(html).toContain('Written by the AI model');
    const asked = ai.requests.find((r) => JSON.stringify(r.body).includes('Where is the red car?'));
    expect(asked?.path).toBe('/chat/completions');
  });
  it('keeps the previous report and clears the flag when making one fails, then makes it again', async () => {
    const owner = await aiServer.createUser({ email: 'fail@example.com', password: 'password1' });
    const t = await aiServer.login('fail@example.com', 'password1');
    const { id } = await seedCompletedVideo(aiServer.ctx, {
      teamId: await teamOf(aiServer.ctx, owner),
      scenes: SCENES,
    });
    const first = await makeReport(aiServer, t, id, 'Where is the red car?');
    const key = (p: string): string => p.slice(0, p.indexOf('?'));

    // The AI service refuses every attempt the queue makes: the job fails for good.
    ai.failNext(DEFAULT_MAX_ATTEMPTS, 400);
    const failed = await makeReport(aiServer, t, id, 'Is the sea calm?');
    expect(key(failed.report_path)).toBe(key(first.report_path));
    const kept = await get(pageUrl(aiServer, id, failed.report_path));
    expect(kept.status).toBe(200);
    expect(kept.text).toContain('Model answer to &lt;Where is the red car?&gt;');
    const [row] = await aiServer.ctx.db.query<{ output_data: { report_failure?: unknown } }>(
      'SELECT output_data FROM videos WHERE id = $1',
      [id],
    );
    expect(row!.output_data.report_failure).toMatchObject({ reason: expect.stringMatching(/400/) });

    // The user can try again, and this time it is made.
    const again = await makeReport(aiServer, t, id, 'Is the sea calm?');
    expect(key(again.report_path)).not.toBe(key(first.report_path));
    const html = (await get(pageUrl(aiServer, id, again.report_path))).text;
    expect(html).toContain('Model answer to &lt;Is the sea calm?&gt;');
  });
});
