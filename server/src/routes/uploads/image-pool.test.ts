// The image pool speaks thread-calls to its threads and keeps its bounds: a refusal crosses the
// thread as ImageRejected, at most `maxQueue` pictures wait (more answer 503), and a picture
// that takes too long is refused and its thread replaced.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error.ts';
import { ImageRejected } from './image-limits.ts';
import { ImagePool } from './image-pool.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-image-pool-'));
const pools: ImagePool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function pool(...args: ConstructorParameters<typeof ImagePool>): ImagePool {
  const made = new ImagePool(...args);
  pools.push(made);
  return made;
}

function svgTask(name: string, body: string): { kind: 'svg'; file: string; cleanFile: string } {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return { kind: 'svg', file, cleanFile: `${file}.clean` };
}

describe('image pool', { timeout: 60_000 }, () => {
  it('answers the cleaned file and its size, and refusals as ImageRejected', async () => {
    const images = pool(1);
    const task = svgTask('ok.svg', '<svg><rect width="2"/><script>x</script></svg>');
    await expect(images.check(task)).rejects.toThrow(ImageRejected);
    const good = svgTask('good.svg', "<svg><title>it's</title></svg>");
    const checked = await images.check(good);
    const clean = fs.readFileSync(checked.file, 'utf8');
    expect(checked).toEqual({ file: good.cleanFile, bytes: Buffer.byteLength(clean) });
    expect(clean).toBe('<svg xmlns="http://www.w3.org/2000/svg"><title>it&#39;s</title></svg>');
    expect(images.threadCount).toBe(1);
  });

  it('lets at most maxQueue pictures wait and answers 503 beyond', async () => {
    const images = pool(1, 2);
    const tasks = Array.from({ length: 4 }, (_, i) => svgTask(`q${i}.svg`, '<svg/>'));
    const answers = await Promise.allSettled(tasks.map((t) => images.check(t)));
    expect(answers.map((a) => a.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    const busy = (answers[3] as PromiseRejectedResult).reason as HttpError;
    expect(busy).toBeInstanceOf(HttpError);
    expect(busy.statusCode).toBe(503);
  });

  it('refuses a picture that takes too long and checks the next on a new thread', async () => {
    const images = pool(1, 4, 1); // 1 ms: no check finishes in time
    await expect(images.check(svgTask('slow.svg', '<svg/>'))).rejects.toThrow(
      /took too long to check/,
    );
    expect(images.threadCount).toBe(0);
    // A new thread, not the stopped one (whose calls would fail with "thread exited").
    await expect(images.check(svgTask('again.svg', '<svg/>'))).rejects.toThrow(ImageRejected);
    const patient = pool(1, 4, 30_000);
    await expect(patient.check(svgTask('next.svg', '<svg/>'))).resolves.toMatchObject({
      bytes: expect.any(Number),
    });
    expect(patient.inFlight).toBe(0);
  });
});
