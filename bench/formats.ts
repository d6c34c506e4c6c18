// Format bench (issue 43): one file of each kind cameras, phones, editors and digitised tapes make
// (tests/support/camera-formats.ts), each analysed by the real pipeline (in-process server,
// local provider, real ffmpeg and models), then its browser file played in Debian's Chromium.
// For each kind it prints: completes, duration, scenes (the file has three), the scene
// thumbnail's shape against the shape a player shows, and whether Chromium plays the video the
// detail page serves (the original where Chromium can, else the rendition). Every row must pass.
//   npm run bench -- formats
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { resolveMediaTools } from '../server/src/media/tools.ts';
import { launchBrowser } from '../tests/e2e/support/browser.ts';
import { analyseFile } from '../tests/support/analyse-file.ts';
import {
  CAMERA_FORMATS,
  SCENE_SECONDS,
  SCENES,
  cameraFormatFile,
  imageSize,
  type CameraFormat,
} from '../tests/support/camera-formats.ts';
import { startTestServer, type TestServer } from '../tests/support/server.ts';

const tools = resolveMediaTools({
  ffmpegPath: process.env.FFMPEG_PATH,
  ffprobePath: process.env.FFPROBE_PATH,
});

interface Row {
  kind: string;
  completes: boolean;
  seconds: number;
  durationS: number;
  scenes: number;
  shape: string;
  shapeOk: boolean;
  plays: string;
  playsOk: boolean;
  error?: string;
}

/** Plays the file in a <video> for a second: answers its shown size and duration, or why not. */
async function playInChromium(browser: Browser, file: string): Promise<string> {
  const dir = path.dirname(file);
  const page = path.join(dir, 'play.html');
  fs.writeFileSync(
    page,
    `<video muted src="${path.basename(file)}"></video><script>
      const v = document.querySelector('video');
      window.played = new Promise((resolve) => {
        v.onerror = () => resolve('error ' + (v.error && v.error.code));
        v.onloadedmetadata = () => v.play().catch((e) => resolve('play refused: ' + e.message));
        v.ontimeupdate = () => { if (v.currentTime > 1) resolve(v.videoWidth + 'x' + v.videoHeight + ' ' + v.duration.toFixed(1) + ' s'); };
        setTimeout(() => resolve('no progress'), 15000);
      });
    </script>`,
  );
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.goto(`file://${page}`);
    return (await tab.evaluate('window.played')) as string;
  } finally {
    await context.close();
  }
}

async function analyseKind(
  server: TestServer,
  browser: Browser,
  owner: { teamId: string; ownerId: string },
  kind: CameraFormat,
  index: number,
  dir: string,
): Promise<Row> {
  const row: Row = {
    kind: kind.name,
    completes: false,
    seconds: 0,
    durationS: 0,
    scenes: 0,
    shape: '',
    shapeOk: false,
    plays: '',
    playsOk: false,
  };
  const file = await cameraFormatFile(tools.ffmpeg, kind);
  const started = performance.now();
  let id: string;
  try {
    id = await analyseFile(server.ctx, {
      ...owner,
      file,
      filename: path.basename(file),
      language: 'en',
      timeoutMs: 300_000,
    });
  } catch (err) {
    row.error = (err as Error).message;
    return row;
  }
  row.completes = true;
  row.seconds = (performance.now() - started) / 1000;
  const db = server.ctx.db;
  const [video] = await db.query<{ video_length: number; playable_key: string }>(
    'SELECT video_length, playable_key FROM videos WHERE id = $1',
    [id],
  );
  row.durationS = Number(video!.video_length);
  const scenes = await db.query<{ thumbnail_key: string }>(
    'SELECT thumbnail_key FROM scenes WHERE video_id = $1 ORDER BY idx',
    [id],
  );
  row.scenes = scenes.length;
  const thumb = await server.ctx.storage.localPath(scenes[0]!.thumbnail_key);
  const { width, height } = imageSize(tools.ffprobe, thumb.path);
  await thumb.release();
  row.shape = `${width}x${height}`;
  row.shapeOk = Math.abs(width / height - kind.displayAspect) < 0.03 * kind.displayAspect;
  const playable = await server.ctx.storage.localPath(video!.playable_key);
  const copy = path.join(dir, `play-${index}.mp4`);
  fs.copyFileSync(playable.path, copy);
  await playable.release();
  row.plays = await playInChromium(browser, copy);
  const shown = /^(\d+)x(\d+) /.exec(row.plays);
  row.playsOk =
    shown !== null &&
    Math.abs(Number(shown[1]) / Number(shown[2]) - kind.displayAspect) < 0.03 * kind.displayAspect;
  return row;
}

export async function main(): Promise<{ ok: boolean }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-bench-formats-'));
  const server = await startTestServer();
  const browser = await launchBrowser();
  const rows: Row[] = [];
  try {
    const ownerId = await server.createUser({
      email: 'formats@example.com',
      password: 'pw12345678',
    });
    const [{ team_id: teamId }] = (await server.ctx.db.query<{ team_id: string }>(
      'SELECT team_id FROM users WHERE id = $1',
      [ownerId],
    )) as [{ team_id: string }];
    for (const [i, kind] of CAMERA_FORMATS.entries()) {
      const row = await analyseKind(server, browser, { teamId, ownerId }, kind, i, dir);
      rows.push(row);
      const pass = row.completes && row.shapeOk && row.playsOk && row.scenes === SCENES;
      console.log(
        `${pass ? 'ok  ' : 'FAIL'} ${kind.name.padEnd(62)} ` +
          (row.completes
            ? `completes in ${row.seconds.toFixed(1)} s | duration ${row.durationS} s | ` +
              `${row.scenes} scenes | thumbnail ${row.shape} | Chromium plays: ${row.plays}`
            : `fails: ${row.error}`),
      );
    }
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const expectedS = SCENES * SCENE_SECONDS;
  const passed = rows.filter(
    (r) =>
      r.completes &&
      r.shapeOk &&
      r.playsOk &&
      r.scenes === SCENES &&
      Math.abs(r.durationS - expectedS) <= 0.5,
  ).length;
  console.log(
    `\n${passed} of ${rows.length} kinds complete, with the right duration, scenes and shape, playable in Chromium`,
  );
  return { ok: passed === rows.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (r) => process.exit(r.ok ? 0 : 1),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
