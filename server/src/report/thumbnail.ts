// Scene pictures for the report as data: URIs. Small files go in as they are; larger ones are
// scaled down to a thumbnail JPEG first so a long video's report stays a few megabytes.
import { REPORT_THUMB_WIDTH } from '../limits.ts';
import { imageInputArgs } from '../media/args.ts';
import { runProcess } from '../media/run.ts';
import type { MediaTools } from '../media/tools.ts';
import type { Storage } from '../storage/storage.ts';

/** Files up to this size are embedded unchanged. */
const EMBED_AS_IS_BYTES = 20 * 1024;

const TYPES: Record<string, string> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', webp: 'webp' };

/** ffmpeg reading one image and writing a scaled-down JPEG on stdout. */
export function thumbnailArgs(input: string, width: number): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...imageInputArgs(input),
    '-frames:v',
    '1',
    '-vf',
    `scale='min(${width},iw)':-2`,
    '-q:v',
    '5',
    '-c:v',
    'mjpeg',
    '-f',
    'image2pipe',
    'pipe:1',
  ];
}

async function readAll(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function thumbnailDataUri(
  storage: Storage,
  tools: MediaTools,
  key: string | null,
  signal?: AbortSignal,
): Promise<string | null> {
  if (!key) return null;
  const stat = await storage.stat(key);
  const type = TYPES[key.split('.').pop()?.toLowerCase() ?? ''];
  if (!stat || !type) return null;
  if (stat.size <= EMBED_AS_IS_BYTES) {
    return `data:image/${type};base64,${(await readAll(storage, key)).toString('base64')}`;
  }
  const local = await storage.localPath(key);
  try {
    const { stdout } = await runProcess(
      tools.ffmpeg,
      thumbnailArgs(local.path, REPORT_THUMB_WIDTH),
      {
        signal,
        timeoutMs: 60_000,
        maxStdoutBytes: 4 * 1024 * 1024,
      },
    );
    return `data:image/jpeg;base64,${stdout.toString('base64')}`;
  } finally {
    await local.release().catch(() => undefined);
  }
}
