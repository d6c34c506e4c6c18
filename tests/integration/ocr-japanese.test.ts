// Japanese title cards in a light typeface, read by the local OCR as the pipeline reads a scene:
// a 3 s clip of the card, its frames written as the analysis pass writes them (4 a second, at
// most 640 px wide, JPEG quality 4), the scene's candidates searched for text and the lines read.
// In a light typeface most kanji fall apart into strokes and radicals (台 is 厶 over 口), and the
// line the detection found began at the first piece of glyph height: 「台所へようこそ」 was read
// 「へようこそ」 and 「港町へようこそ」 「港町へよう」 (the search-quality bench read 11 of its 20
// Japanese cards with this typeface, docs/decisions/ocr.md). Each card is a still of the
// search-quality bench's card, made once with
//   ffmpeg -f lavfi -i "color=c=0x1f4e79:size=640x360,drawtext=fontfile=ipag.ttf:textfile=t.txt:
//   fontsize=36:fontcolor=white:box=1:boxcolor=black@0.7:boxborderw=10:x=(w-tw)/2:y=(h-th)/2"
//   -frames:v 1 ja-card-kitchen.png
// (IPA Gothic, Debian's fonts-ipafont-gothic, IPA Font License): no Japanese font is needed here.
// The third is the same card in Noto Sans CJK Bold (Debian's fonts-noto-cjk, SIL OFL), drawn
// clean: the engine read its line as "BEALS CE" at confidence 0 at the drawn size, and reads it
// whole at 0.7 of it (the second read, ocr.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readScreenText } from '../../server/src/analysis/local/ocr.ts';
import { closeSpareOcrEngines } from '../../server/src/analysis/local/ocr-engine.ts';
import { closeTextDetection } from '../../server/src/analysis/local/ocr-frames-thread.ts';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';

const CARDS = [
  { file: 'ja-card-kitchen.png', text: '台所へようこそ' },
  { file: 'ja-card-harbour.png', text: '港町へようこそ' },
  { file: 'ja-card-harbour-noto.png', text: '港町へようこそ' },
];
const SCENE_MS = 3000;
const { ffmpeg } = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});
let dir = '';

/** The card held for a scene, as an H.264 clip, and its frames as the analysis pass writes them. */
async function sceneFrames(card: string, name: string): Promise<string[]> {
  const png = fileURLToPath(new URL(`../fixtures/ocr/${card}`, import.meta.url));
  const clip = path.join(dir, `${name}.mp4`);
  const quiet = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  await runProcess(ffmpeg, [
    ...quiet,
    ...['-loop', '1', '-framerate', '25', '-t', String(SCENE_MS / 1000), '-i', png],
    ...['-vf', 'format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', clip],
  ]);
  await runProcess(ffmpeg, [
    ...quiet,
    ...['-i', clip, '-vf', "fps=4,scale='min(640,iw)':-2,format=yuvj420p"],
    ...['-q:v', '4', path.join(dir, `${name}-%06d.jpg`)],
  ]);
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`))
    .sort()
    .map((f) => path.join(dir, f));
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-ocr-ja-'));
});

afterAll(async () => {
  await closeSpareOcrEngines();
  await closeTextDetection();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('reads a Japanese title card in a light typeface whole, its first kanji word included', async () => {
  const scenes = await Promise.all(
    CARDS.map(async (c, i) => ({
      startMs: i * SCENE_MS,
      endMs: (i + 1) * SCENE_MS,
      framePaths: await sceneFrames(c.file, `card${i}`),
    })),
  );
  const read = await readScreenText(scenes, { language: 'ja' });
  const texts = read.scenes.map((lines) => lines.map((l) => l.text.replace(/\s/g, '')));
  expect(texts).toEqual(CARDS.map((c) => [c.text]));
}, 60_000);
