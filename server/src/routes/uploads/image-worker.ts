// The image work of people uploads, run in a worker thread (image-pool.ts) so that a large or
// hostile picture never stalls the server's event loop: SVGs are rebuilt by the sanitiser, PNG
// and JPEG headers are checked for the pixel size they declare.
import fs from 'node:fs';
import { parentPort, threadId } from 'node:worker_threads';
import { checkRasterSize, ImageRejected } from './image-limits.ts';
import { sanitiseSvg } from './svg-sanitiser.ts';

export type ImageKind = 'jpg' | 'png' | 'svg';

export interface ImageTask {
  id: number;
  kind: ImageKind;
  file: string;
}

export type ImageAnswer =
  | { id: number; ok: true; threadId: number; svg?: string }
  | { id: number; ok: false; rejected: boolean; message: string };

/** Header bytes enough for any PNG IHDR or JPEG frame header after its metadata segments. */
const HEAD_BYTES = 1024 * 1024;

async function check(task: ImageTask): Promise<{ svg?: string }> {
  if (task.kind === 'svg')
    return { svg: sanitiseSvg(await fs.promises.readFile(task.file, 'utf8')) };
  const handle = await fs.promises.open(task.file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    checkRasterSize(head.subarray(0, bytesRead));
    return {};
  } finally {
    await handle.close();
  }
}

parentPort?.on('message', (task: ImageTask) => {
  check(task).then(
    (done) =>
      parentPort?.postMessage({ id: task.id, ok: true, threadId, ...done } satisfies ImageAnswer),
    (err: unknown) =>
      parentPort?.postMessage({
        id: task.id,
        ok: false,
        rejected: err instanceof ImageRejected,
        message: err instanceof Error ? err.message : String(err),
      } satisfies ImageAnswer),
  );
});
