// Which ffmpeg and ffprobe to run: FFMPEG_PATH / FFPROBE_PATH, else the ones on PATH, else the
// static binaries shipped by @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config } from '../config.ts';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

export class MediaToolsError extends Error {}

const require = createRequire(import.meta.url);

function onPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

function fromPackage(pkg: string): string | undefined {
  try {
    const found = (require(pkg) as { path?: string }).path;
    return found && fs.existsSync(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

const cache = new Map<string, MediaTools>();

export function resolveMediaTools(config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>): MediaTools {
  const key = `${config.ffmpegPath ?? ''}\0${config.ffprobePath ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const ffmpeg = config.ffmpegPath ?? onPath('ffmpeg') ?? fromPackage('@ffmpeg-installer/ffmpeg');
  const ffprobe =
    config.ffprobePath ?? onPath('ffprobe') ?? fromPackage('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe) {
    throw new MediaToolsError(
      'ffmpeg/ffprobe not found: set FFMPEG_PATH and FFPROBE_PATH, put them on PATH, or run npm install',
    );
  }
  const tools = { ffmpeg, ffprobe };
  cache.set(key, tools);
  return tools;
}

/**
 * The ffprobe for many short probes in a row (the operator's import): FFPROBE_PATH, else the
 * static binary shipped by npm, which starts in a quarter of the time of a system ffprobe that
 * loads its shared libraries on every run; else the usual choice.
 */
export function probeToolForMany(config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>): MediaTools {
  const tools = resolveMediaTools(config);
  const shipped = config.ffprobePath ? undefined : fromPackage('@ffprobe-installer/ffprobe');
  return shipped ? { ...tools, ffprobe: shipped } : tools;
}
