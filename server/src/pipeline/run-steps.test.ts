// The analysis's step order: a background step (joinBefore) runs alongside the steps after it and
// is waited for before the named one; its failure fails the analysis there; a failing step lets
// the background ones end first (they write into the job's temp folder, removed afterwards).
import { expect, it } from 'vitest';
import { runSteps } from './run-steps.ts';
import type { Step } from './step-context.ts';

const step = (name: string, extra: Partial<Step> = {}): Step => ({
  name,
  run: () => Promise.resolve(null),
  ...extra,
});

/**
 * Runs scenes, clips (in the background until index), perceive and index; each step's run is
 * ended by the test (`ends`), and `log` says what happened in which order.
 */
function start(finished: (name: string) => boolean = () => false) {
  const log: string[] = [];
  const ends = new Map<string, { resolve(): void; reject(e: Error): void }>();
  const run = (s: Step) =>
    new Promise<void>((resolve, reject) => {
      log.push(`start ${s.name}`);
      const resolveLogged = (): void => {
        log.push(`end ${s.name}`);
        resolve();
      };
      ends.set(s.name, { resolve: resolveLogged, reject });
    });
  const pipeline = [
    step('scenes'),
    step('clips', { joinBefore: 'index' }),
    step('perceive'),
    step('index'),
  ];
  const done = runSteps(pipeline, {
    finished,
    run,
    prepare: () => undefined,
    checkAborted: () => undefined,
  });
  return { log, ends, done };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

it('runs a background step alongside the next ones and waits for it before the named step', async () => {
  const { log, ends, done } = start();
  await settle();
  ends.get('scenes')!.resolve();
  await settle();
  // The clips are being cut while the models work.
  expect(log).toEqual(['start scenes', 'end scenes', 'start clips', 'start perceive']);
  ends.get('perceive')!.resolve();
  await settle();
  expect(log).not.toContain('start index');
  ends.get('clips')!.resolve();
  await settle();
  expect(log.slice(-2)).toEqual(['end clips', 'start index']);
  ends.get('index')!.resolve();
  await done;
});

it('fails where a failed background step is waited for, and skips finished steps', async () => {
  const { log, ends, done } = start((name) => name === 'scenes');
  await settle();
  ends.get('clips')!.reject(new Error('clips step failed: disk full'));
  await settle();
  ends.get('perceive')!.resolve();
  await expect(done).rejects.toThrow('disk full');
  expect(log).toEqual(['start clips', 'start perceive', 'end perceive']);
});

it('lets a background step end before a failed step is reported', async () => {
  const { ends, done } = start((name) => name === 'scenes');
  let reported = false;
  const failed = done.catch((err: unknown) => {
    reported = true;
    throw err;
  });
  await settle();
  ends.get('perceive')!.reject(new Error('perceive step failed'));
  await settle();
  expect(reported).toBe(false);
  ends.get('clips')!.resolve();
  await expect(failed).rejects.toThrow('perceive step failed');
});
