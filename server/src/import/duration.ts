// The duration of a file to import: read from its moov with the web app's MP4/QuickTime reader
// (a few header reads and the moov, in this process), and from ffprobe only for what that reader
// cannot answer (a fragmented MP4, whose moov has no duration, or a file that is not MP4/MOV).
// Spawning ffprobe was about 43 ms of CPU per file; the reader costs about 1 ms. Both readers are
// loaded with the first file to read (about 0.1 s): an import run again, with nothing new, reads
// no duration and does not load them.
import fs from 'node:fs/promises';
import type { ByteSource } from '../../../src/workers/byte-source.ts';
import type { probeMp4 as ProbeMp4 } from '../../../src/workers/mp4-duration.ts';
import type { probeFile as ProbeFile } from '../media/operations.ts';
import type { MediaTools } from '../media/tools.ts';

let readers:
  | Promise<{
      probeMp4: typeof ProbeMp4;
      probeFile: typeof ProbeFile;
    }>
  | undefined;

const loadReaders = () =>
  (readers ??= Promise.all([
    import('mp4box'),
    import('../../../src/workers/mp4-duration.ts'),
    import('../media/operations.ts'),
  ]).then(([{ Log }, { probeMp4 }, { probeFile }]) => {
    // mp4box writes its parser's complaints (an unknown QuickTime box such as ©swr) to stderr. In
    // the import they are noise: a file it cannot read goes to ffprobe, whose words are listed.
    Log.error = () => undefined;
    return { probeMp4, probeFile };
  }));

export interface ImportDuration {
  durationMs: number;
  /** Which reader answered. */
  via: 'mp4' | 'ffprobe';
}

/** A file read by ranges through an open handle (the Node counterpart of the app's blobSource). */
function handleSource(handle: fs.FileHandle, size: number): ByteSource {
  return {
    size,
    async read(offset, length) {
      const end = Math.min(size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const buffer = Buffer.alloc(end - offset);
      let at = 0;
      while (at < buffer.length) {
        const { bytesRead } = await handle.read(buffer, at, buffer.length - at, offset + at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      return buffer.subarray(0, at);
    },
  };
}

/** The MP4/MOV reader's duration in ms, or undefined when it cannot read one. */
async function mp4DurationMs(file: string): Promise<number | undefined> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, 'r');
    const { size } = await handle.stat();
    const { probeMp4 } = await loadReaders();
    const info = await probeMp4(handleSource(handle, size));
    // Whole ms, as ffprobe's reading is given.
    const ms = info ? Math.round(info.durationSeconds * 1000) : NaN;
    return Number.isFinite(ms) && ms > 0 ? ms : undefined;
  } catch {
    // Whatever the reader trips on, ffprobe gets its say (and its words if it fails too).
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** Throws ffprobe's error when neither reader can read the file. */
export async function importDuration(tools: MediaTools, file: string): Promise<ImportDuration> {
  const ms = await mp4DurationMs(file);
  if (ms !== undefined) return { durationMs: ms, via: 'mp4' };
  const { probeFile } = await loadReaders();
  return { durationMs: (await probeFile(tools, file)).durationMs, via: 'ffprobe' };
}
