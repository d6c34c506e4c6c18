// Job handlers by name. A worker is built from a list of handlers and refuses to start when a
// name has two handlers or when a job the product relies on has none.
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { CHAIN } from './chain.ts';
import type { JobRow } from './job-store.ts';
import { REQUIRED_JOBS, type JobName } from './names.ts';

export interface JobHandler {
  name: JobName;
  /** Does the work. Must stop (throw) soon after `signal` aborts; ffmpeg runs are killed with it. */
  run(ctx: AppContext, job: JobRow, signal: AbortSignal): Promise<void>;
  /**
   * Once, when the job failed for good (no attempts left, or a PermanentJobError), inside the
   * transaction that marks the job failed: a crash cannot leave one without the other.
   */
  onFailed?(ctx: AppContext, job: JobRow, err: unknown, q: Queryable): Promise<void>;
  /** After a cancel stopped the handler: remove what it wrote for a video that is gone. */
  onCancelled?(ctx: AppContext, job: JobRow): Promise<void>;
  /** Delay before attempt n+1 after attempt n failed, when this job needs its own. */
  backoffMs?(attempt: number): number;
}

export class RegistryError extends Error {}

export function buildRegistry(handlers: readonly JobHandler[]): ReadonlyMap<string, JobHandler> {
  const byName = new Map<string, JobHandler>();
  for (const h of handlers) {
    if (byName.has(h.name)) throw new RegistryError(`job "${h.name}" has two handlers`);
    byName.set(h.name, h);
  }
  const required = new Set<string>(REQUIRED_JOBS);
  for (const followUps of Object.values(CHAIN)) {
    for (const f of followUps ?? []) if (!f.ifRegistered) required.add(f.name);
  }
  for (const name of required) {
    if (!byName.has(name)) throw new RegistryError(`job "${name}" has no handler`);
  }
  return byName;
}
