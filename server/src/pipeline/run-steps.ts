// The order in which the analysis runs its steps: one after the other, except a step with
// joinBefore, which runs in the background from its turn until the step it is waited for.
// Finished steps (a retry, a recovered crash) are skipped; prepare hooks start once the step they
// follow is behind.
import type { Step } from './step-context.ts';

export async function runSteps(
  pipeline: readonly Step[],
  o: {
    finished(name: string): boolean;
    run(step: Step): Promise<void>;
    prepare(step: Step): void;
    checkAborted(): void;
  },
): Promise<void> {
  const background: { joinBefore: string; done: Promise<void> }[] = [];
  const join = async (name?: string): Promise<void> => {
    for (const b of background.filter((b) => name === undefined || b.joinBefore === name)) {
      await b.done;
    }
  };
  try {
    for (const s of pipeline) {
      o.checkAborted();
      await join(s.name);
      if (!o.finished(s.name)) {
        if (s.joinBefore) {
          const done = o.run(s);
          // Its failure is thrown where it is joined; until then it must not go unhandled.
          done.catch(() => undefined);
          background.push({ joinBefore: s.joinBefore, done });
        } else await o.run(s);
      }
      for (const later of pipeline) {
        if (later.prepare?.after === s.name && !o.finished(later.name)) o.prepare(later);
      }
    }
    await join();
  } finally {
    // When a step fails, the background ones still end before the caller removes their files.
    await Promise.allSettled(background.map((b) => b.done));
  }
}
