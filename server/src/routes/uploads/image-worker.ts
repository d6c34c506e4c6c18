// The image work of people uploads, run in a worker thread (image-pool.ts) so that a large or
// hostile picture never stalls the server's event loop: SVGs are rebuilt by the sanitiser and
// written to their own file, PNG and JPEG headers are checked for the pixel size they declare.
// Answers by thread-calls (lib/thread-calls.ts), like the database and perception threads.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { answerCalls } from '../../lib/thread-calls.ts';
import type { PictureKind } from '../../media/still-image.ts';
import { checkRasterSize } from './image-limits.ts';
import { sanitiseSvg } from './svg-sanitiser.ts';

export interface ImageTask {
  kind: PictureKind;
  /** The file as received. */
  file: string;
  /** Where an SVG's rebuilt text is written (the file stored instead of the received one). */
  cleanFile: string;
}

export interface ImageChecked {
  /** The file to store: the received one, or the rebuilt SVG. */
  file: string;
  /** Its size: what the request's byte budget counts. */
  bytes: number;
}

/** Header bytes enough for any PNG IHDR or JPEG frame header after its metadata segments. */
const HEAD_BYTES = 1024 * 1024;

export async function checkImage(task: ImageTask): Promise<ImageChecked> {
  if (task.kind === 'svg') {
    const clean = sanitiseSvg(await fs.promises.readFile(task.file, 'utf8'));
    await fs.promises.writeFile(task.cleanFile, clean);
    return { file: task.cleanFile, bytes: Buffer.byteLength(clean) };
  }
  const handle = await fs.promises.open(task.file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    checkRasterSize(head.subarray(0, bytesRead));
    return { file: task.file, bytes: (await handle.stat()).size };
  } finally {
    await handle.close();
  }
}

if (parentPort) answerCalls<ImageTask & { id: number }>(parentPort, checkImage);
