// Work that must not delay an answer (forgot-password mails). Tracked per context so that
// closing the server waits for it instead of cutting it off mid-way.
import type { AppContext } from '../context.ts';

const pending = new WeakMap<AppContext, Set<Promise<void>>>();

export function runInBackground(
  ctx: AppContext,
  onError: (err: unknown) => void,
  work: () => Promise<void>,
): void {
  let set = pending.get(ctx);
  if (!set) {
    set = new Set();
    pending.set(ctx, set);
  }
  const tasks = set;
  // setImmediate: the answer leaves before any of the work starts.
  const task = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch(onError)
    .finally(() => tasks.delete(task));
  tasks.add(task);
}

export async function settleBackground(ctx: AppContext): Promise<void> {
  const set = pending.get(ctx);
  while (set && set.size > 0) await Promise.all([...set]);
}
