// The clips of the search-quality set: each scene a background with its text drawn by ffmpeg's
// drawtext, the captions as a mov_text subtitle track. Made with tests/support/media.ts, so
// they are cached in the temp folder (keyed by their description) and a rerun reuses them.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeVideo, type MadeVideo } from '../tests/support/media.ts';
import type { EvalVideo, Lang } from './search-quality-data.ts';

const WIDTH = 640;
const HEIGHT = 360;
const SCENE_MS = 3000;
const textDir = path.join(os.tmpdir(), 'va-search-quality-text');

export interface Fonts {
  latin: string;
  /** A font with Japanese glyphs; undefined when fontconfig knows none. */
  japanese: string | undefined;
}

function fcFiles(args: string[]): string[] {
  try {
    return execFileSync(args[0]!, args.slice(1), { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter((f) => f && fs.existsSync(f));
  } catch {
    return [];
  }
}

/** Bold sans fonts from fontconfig (Debian's ffmpeg depends on it); bold reads best by OCR. */
export function findFonts(): Fonts {
  const latin = fcFiles(['fc-match', '-f', '%{file}\n', 'sans:bold'])[0];
  if (!latin) throw new Error('no font for drawtext: install fonts-dejavu-core');
  const ja = [...new Set(fcFiles(['fc-list', '-f', '%{file}\n', ':lang=ja']))].sort();
  const japanese =
    ja.find((f) => /sans/i.test(f) && /bold/i.test(f)) ?? ja.find((f) => /sans/i.test(f)) ?? ja[0];
  return { latin, japanese };
}

/** drawtext reads the text from a file: no escaping of quotes, colons or Japanese. */
function textFile(text: string): string {
  fs.mkdirSync(textDir, { recursive: true });
  const file = path.join(
    textDir,
    `${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}.txt`,
  );
  if (!fs.existsSync(file)) fs.writeFileSync(file, text);
  return file;
}

function drawText(fonts: Fonts, screen: { text: string; size: number; lang: Lang }): string {
  const font = screen.lang === 'ja' ? fonts.japanese : fonts.latin;
  if (!font) throw new Error('Japanese on-screen text needs a Japanese font');
  if (/['\\]/.test(font)) throw new Error(`font path not usable in a filter graph: ${font}`);
  const px = Math.round(screen.size * HEIGHT);
  return (
    `drawtext=fontfile='${font}':textfile='${textFile(screen.text)}':fontsize=${px}:` +
    'fontcolor=white:box=1:boxcolor=black@0.7:boxborderw=10:x=(w-tw)/2:y=(h-th)/2'
  );
}

/** The clip of one eval video (made once, then taken from the cache). */
export function makeEvalClip(video: EvalVideo, fonts: Fonts): Promise<MadeVideo> {
  return makeVideo({
    width: WIDTH,
    height: HEIGHT,
    segments: video.scenes.map((s, i) => ({
      source: s.background,
      seconds: SCENE_MS / 1000,
      ...(s.screen ? { extra: drawText(fonts, s.screen) } : {}),
      ...(i > 0 ? { transition: { kind: 'cut' as const } } : {}),
    })),
    subtitles: video.scenes.map((s, i) => ({
      startMs: i * SCENE_MS,
      endMs: (i + 1) * SCENE_MS,
      text: s.captions,
    })),
  });
}
