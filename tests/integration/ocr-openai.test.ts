// On-screen text with AI_PROVIDER=openai (a real local HTTP server speaking the protocol, whose
// scene descriptions never quote it): the real pipeline reads the words on this machine as for
// the local provider, hands them to the model, and a keyword search finds the scene by them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchScenes } from '../../server/src/search/search.ts';
import { drawtextFont, makeVideo } from '../support/media.ts';
import { analyseFile } from '../support/analyse-file.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/openai-server.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    AI_PROVIDER: 'openai',
    AI_BASE_URL: fake.url,
    AI_API_KEY: 'sk-test',
    AI_MODEL: 'vision-1',
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

it(
  'finds a scene by a word shown on screen, which the model did not write',
  { timeout: 180_000 },
  async () => {
    const ctx = server.ctx;
    const ownerId = await server.createUser({ email: 'ocr-ai@example.com', password: 'password1' });
    const [{ team_id: teamId }] = (await ctx.db.query<{ team_id: string }>(
      'SELECT team_id FROM users WHERE id = $1',
      [ownerId],
    )) as [{ team_id: string }];
    const font = drawtextFont();
    const video = await makeVideo({
      width: 640,
      height: 360,
      segments: [
        { source: 'testsrc2', seconds: 3 },
        {
          source: 'smptebars',
          seconds: 3,
          transition: { kind: 'cut' },
          extra:
            `drawtext=fontfile=${font}:text='Ferry departs at noon':fontsize=32:fontcolor=white:` +
            'box=1:boxcolor=black@0.6:boxborderw=8:x=(w-tw)/2:y=h*0.62',
        },
      ],
    });
    const id = await analyseFile(ctx, {
      teamId,
      ownerId,
      file: video.file,
      filename: 'ferry.mp4',
      language: 'en',
      timeoutMs: 120_000,
    });
    const scenes = await ctx.db.query<{ description: string }>(
      'SELECT description FROM scenes WHERE video_id = $1 ORDER BY idx',
      [id],
    );
    expect(scenes.map((s) => s.description).join(' ')).not.toMatch(/ferry/i);
    // The model was told what the scene shows.
    expect(JSON.stringify(fake.requests.map((r) => r.body))).toContain('Ferry departs at noon');

    const found = await searchScenes(ctx, {
      teamId,
      scope: 'all',
      method: 'sparse',
      k: 10,
      page: 1,
      size: 10,
      description: 'ferry departs',
    });
    expect(found.items[0]).toMatchObject({ videoId: id, sceneIndex: 1 });
  },
);
