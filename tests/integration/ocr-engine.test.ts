// The OCR engine in a process of its own, as the worker runs it: it reads the words of a picture
// and starts quietly. Its thread loads tesseract's LSTM-only core (ocr-worker.mjs), which does
// not know the legacy parameters the models' configs name and warns about each one at every
// start: those warnings must not reach the worker's log.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runProcess } from '../../server/src/media/run.ts';
import { resolveMediaTools } from '../../server/src/media/tools.ts';
import { drawtextFont } from '../support/media.ts';

const ENGINE = fileURLToPath(
  new URL('../../server/src/analysis/local/ocr-engine.ts', import.meta.url),
);
const { ffmpeg } = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});
let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-ocr-engine-'));
  execFileSync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=black:size=640x120'],
    '-vf',
    `drawtext=fontfile=${drawtextFont()}:text='QUIET HARBOUR 2026':fontsize=44:` +
      'fontcolor=white:x=(w-tw)/2:y=(h-th)/2,format=gray',
    ...['-frames:v', '1', path.join(dir, 'words.pgm')],
  ]);
  fs.writeFileSync(
    path.join(dir, 'read.mts'),
    `import fs from 'node:fs';
import { OcrEngine } from ${JSON.stringify(ENGINE)};
const engine = await OcrEngine.open(['eng', 'jpn']);
const words = await engine.read(fs.readFileSync(${JSON.stringify(path.join(dir, 'words.pgm'))}));
await engine.close();
console.log(JSON.stringify(words.map((w) => w.text)));
`,
  );
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('reads the words of a picture and writes nothing to stderr', { timeout: 60_000 }, async () => {
  const { stdout, stderr } = await runProcess(
    process.execPath,
    ['--import', 'tsx', path.join(dir, 'read.mts')],
    { timeoutMs: 50_000 },
  );
  expect(JSON.parse(stdout.toString('utf8'))).toEqual(['QUIET', 'HARBOUR', '2026']);
  expect(stderr).toBe('');
});
