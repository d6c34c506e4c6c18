// mediainfo.js for what mp4box.js cannot answer: other containers, and creation dates kept
// outside mvhd (e.g. QuickTime metadata). It asks for the chunks it wants through readChunk.
import mediaInfoFactory, { type GeneralTrack, type MediaInfo } from 'mediainfo.js';
import wasmUrl from 'mediainfo.js/MediaInfoModule.wasm?url';
import type { ByteSource } from './byte-source.ts';

export interface MediaInfoSummary {
  durationSeconds: number | undefined;
  createdAt: Date | undefined;
}

let instance: Promise<MediaInfo<'object'>> | undefined;

function mediaInfo(): Promise<MediaInfo<'object'>> {
  // Without locateFile the wasm request falls through to index.html ("expected magic word").
  instance ??= mediaInfoFactory({ format: 'object', locateFile: () => wasmUrl });
  return instance;
}

/** "2023-05-06 07:08:09 UTC", "UTC 2023-05-06 07:08:09" or ISO with an offset. */
export function parseMediaInfoDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const utc = /UTC/.test(value);
  const match =
    /(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?([+-]\d{2}:?\d{2}|Z)?/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone] = match;
  const base = `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}`;
  const date = new Date(zone ? `${base}${zone}` : utc ? `${base}Z` : base);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() <= 1904 ? undefined : date;
}

export async function probeWithMediaInfo(source: ByteSource): Promise<MediaInfoSummary> {
  const mi = await mediaInfo();
  const result = await mi.analyzeData(source.size, (size, offset) => source.read(offset, size));
  const general = result.media?.track.find((t): t is GeneralTrack => t['@type'] === 'General');
  const duration = general?.Duration;
  return {
    durationSeconds: typeof duration === 'number' && duration > 0 ? duration : undefined,
    createdAt:
      parseMediaInfoDate(general?.Recorded_Date) ??
      parseMediaInfoDate(general?.Encoded_Date) ??
      parseMediaInfoDate(general?.Tagged_Date),
  };
}
