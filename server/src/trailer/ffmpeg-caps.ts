// What the ffmpeg in use can do, asked once per binary: the npm-shipped 4.1 has no xfade.
import { runProcess } from '../media/run.ts';
import { filtersArgs, parseFilterNames } from './ffmpeg-args.ts';

export interface FfmpegCaps {
  xfade: boolean;
}

const cache = new Map<string, Promise<FfmpegCaps>>();

export function ffmpegCaps(ffmpeg: string): Promise<FfmpegCaps> {
  let found = cache.get(ffmpeg);
  if (!found) {
    found = runProcess(ffmpeg, filtersArgs(), { timeoutMs: 30_000 }).then(({ stdout }) => {
      const names = parseFilterNames(stdout.toString('utf8'));
      return { xfade: names.has('xfade') && names.has('acrossfade') && names.has('tpad') };
    });
    // A failed probe is asked again next time rather than remembered.
    found.catch(() => cache.delete(ffmpeg));
    cache.set(ffmpeg, found);
  }
  return found;
}
