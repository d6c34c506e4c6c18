// On-screen text with the local provider, end to end: videos whose scenes show known words
// (drawn by ffmpeg's drawtext with a system font for English; overlaid from an image rendered
// with Noto Sans JP for Japanese, as no Japanese font is installed here) are analysed by the real
// pipeline; the scene descriptions quote the words, the title comes from the title card, a
// scene without text gets no quote, and a keyword search finds the scene by a word shown on it.
// Objects the same way (issue 16): a real photo of a fighter jet held for a few seconds is
// described and tagged "airplane" in English and 飛行機 in Japanese (COCO objects, CenterNet).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/src/context.ts';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { searchScenes } from '../../server/src/search/search.ts';
import { AIRPLANE_PHOTO, makeFaceVideo } from '../support/face-photos.ts';
import { drawtextFont, makeVideo } from '../support/media.ts';
import { analyseFile } from '../support/analyse-file.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// 400x64 RGBA, "横浜港の花火大会" in white with a black border, made once with
// ffmpeg -f lavfi -i "color=c=black@0.0:size=400x64,format=rgba,drawtext=fontfile=NotoSansJP-Bold.otf:
// textfile=ja.txt:fontsize=40:fontcolor=white:borderw=3:bordercolor=black:x=(w-tw)/2:y=(h-th)/2"
// -frames:v 1 ja-title.png (Noto Sans JP, SIL OFL, from the npm package @embedpdf/fonts-jp).
const JA_TITLE_PNG = fileURLToPath(new URL('../fixtures/ocr/ja-title.png', import.meta.url));
const drawText = (font: string, text: string, size: number, box: boolean): string =>
  `drawtext=fontfile=${font}:text='${text}':fontsize=${size}:fontcolor=white:` +
  (box ? 'box=1:boxcolor=black@0.6:boxborderw=8:' : 'borderw=3:bordercolor=black:') +
  'x=(w-tw)/2:y=h*0.62';

let server: TestServer;
let ctx: AppContext;
let teamId: string;
let ownerId: string;

beforeAll(async () => {
  server = await startTestServer();
  ctx = server.ctx;
  ownerId = await server.createUser({ email: 'ocr@example.com', password: 'password1' });
  teamId = (
    await ctx.db.query<{ team_id: string }>('SELECT team_id FROM users WHERE id = $1', [ownerId])
  )[0]!.team_id;
});

afterAll(async () => {
  await server?.close();
});

async function analyse(file: string, language: string): Promise<string> {
  return analyseFile(ctx, {
    teamId,
    ownerId,
    file,
    filename: 'clip_0042.mp4',
    language,
    timeoutMs: 90_000,
  });
}

const descriptions = async (id: string): Promise<string[]> =>
  (
    await ctx.db.query<{ description: string }>(
      'SELECT description FROM scenes WHERE video_id = $1 ORDER BY idx',
      [id],
    )
  ).map((s) => s.description);

const search = (description: string, method: 'sparse' | 'dense' | 'hybrid') =>
  searchScenes(ctx, { teamId, scope: 'all', method, k: 10, page: 1, size: 10, description });

describe('on-screen text (local provider)', () => {
  it('quotes English text shown in a scene, titles the video by its title card and finds the scene by a word shown', async () => {
    const font = drawtextFont();
    const video = await makeVideo({
      width: 640,
      height: 360,
      segments: [
        { source: 'testsrc2', seconds: 3, extra: drawText(font, 'HARBOUR FESTIVAL', 44, false) },
        {
          source: 'smptebars',
          seconds: 3,
          transition: { kind: 'cut' },
          extra: drawText(font, 'Fireworks start at eight', 28, true),
        },
        { source: 'mandelbrot', seconds: 3, transition: { kind: 'cut' } },
      ],
    });
    const id = await analyse(video.file, 'en');
    const [first, second, third] = await descriptions(id);
    expect(first).toContain('On-screen text reads “HARBOUR FESTIVAL');
    expect(second).toMatch(/On-screen text reads “[^”]*Fireworks start at eight/);
    // Nothing is shown in the last scene: nothing is quoted.
    expect(third).not.toContain('On-screen text');

    const [row] = await ctx.db.query<{ title: string; tags: { name: string }[] }>(
      'SELECT title, tags FROM videos WHERE id = $1',
      [id],
    );
    // No uploader text and no captions: the large text of the opening scene is the title.
    expect(row!.title).toBe('HARBOUR FESTIVAL');
    // The words read on screen are tagged (as phrases where they stand together, issue 16).
    const tagWords = row!.tags.flatMap((t) => t.name.toLowerCase().split(/\s+/));
    expect(tagWords).toEqual(expect.arrayContaining(['harbour', 'fireworks']));

    for (const method of ['sparse', 'dense', 'hybrid'] as const) {
      const found = await search('fireworks at eight', method);
      expect(found.items[0], method).toMatchObject({ videoId: id, sceneIndex: 1 });
    }
  });

  it('reads Japanese text for a Japanese video and finds the scene by it', async () => {
    const { ffmpeg } = resolveMediaTools({
      ffmpegPath: process.env.FFMPEG_PATH,
      ffprobePath: process.env.FFPROBE_PATH,
    });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'va-ocr-ja-')), 'ja.mp4');
    await runProcess(ffmpeg, [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=4', '-i', JA_TITLE_PNG],
      ...['-filter_complex', '[0:v][1:v]overlay=(W-w)/2:H*0.62,format=yuv420p'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-t', '4', file],
    ]);
    try {
      const id = await analyse(file, 'ja');
      const [first] = await descriptions(id);
      expect(first).toContain('画面上の文字：「');
      expect(first).toContain('横浜港の花火大会');
      for (const method of ['sparse', 'hybrid'] as const) {
        const found = await search('花火大会', method);
        expect(found.items[0], method).toMatchObject({ videoId: id, sceneIndex: 0 });
      }
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe('objects seen (local provider)', () => {
  // One real photo, analysed in each output language: the label in the scene and the tags.
  it.each([
    ['en', 'Also in view: airplane.', 'airplane'],
    ['ja', 'ほかに映っているもの：飛行機。', '飛行機'],
  ])('names the airplane of a photo in %s', async (language, sentence, tag) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-objects-'));
    try {
      const file = await makeFaceVideo(
        [{ photo: AIRPLANE_PHOTO, seconds: 3 }],
        path.join(dir, 'jet.mp4'),
      );
      const id = await analyse(file, language);
      expect(await descriptions(id)).toEqual([expect.stringContaining(sentence)]);
      const [row] = await ctx.db.query<{ tags: { name: string }[] }>(
        'SELECT tags FROM videos WHERE id = $1',
        [id],
      );
      expect(row!.tags.map((t) => t.name)).toContain(tag);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
