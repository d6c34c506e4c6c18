// mediainfo.js for what mp4box.js cannot answer: other containers, and a fragmented MP4 whose
// moov carries no duration. It asks for the chunks it wants through readChunk.
import mediaInfoFactory, { type GeneralTrack, type MediaInfo } from 'mediainfo.js';
import wasmUrl from 'mediainfo.js/MediaInfoModule.wasm?url';
import type { ByteSource } from './byte-source.ts';
import { parseMetadataDate } from './quicktime-dates.ts';

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

export async function probeWithMediaInfo(source: ByteSource): Promise<MediaInfoSummary> {
  const mi = await mediaInfo();
  const result = await mi.analyzeData(source.size, (size, offset) => source.read(offset, size));
  const general = result.media?.track.find((t): t is GeneralTrack => t['@type'] === 'General');
  const duration = general?.Duration;
  return {
    durationSeconds: typeof duration === 'number' && duration > 0 ? duration : undefined,
    createdAt:
      parseMetadataDate(general?.Recorded_Date) ??
      parseMetadataDate(general?.Encoded_Date) ??
      parseMetadataDate(general?.Tagged_Date),
  };
}
