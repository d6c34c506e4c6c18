// The server's SHA-256 of the videos stored before migration 018 (issue 42): without it they are
// never "in the archive" for check-files, and a re-import of an old archive would store them
// twice. A recurring job (schedules.ts: due at once after the first start, then hourly) walks
// every such video once per run (by id), a few files at a time, reading each file once
// through the storage (local or S3, streamed, nothing on disk). One run at a time across
// processes (the schedule queues no second job while one is queued or running), and the write
// only lands while the video still has no digest, so a second worker or a retry's analysis that
// hashed it meanwhile wins. It marks nothing a duplicate (docs/decisions/content-hash.md).
import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import { CONTENT_HASH_BACKFILL_BATCH } from '../limits.ts';
import { recordBackfilledHash, unhashedStoredVideos } from '../repositories/content-hash.ts';
import { JobName } from './names.ts';
import type { JobHandler } from './registry.ts';

export interface BackfillResult {
  hashed: number;
  /** Files missing or unreadable now; the next run tries them again. */
  skipped: number;
}

async function hashStored(
  ctx: AppContext,
  key: string,
  signal: AbortSignal,
): Promise<{ sha256: string; size: number } | undefined> {
  if (!(await ctx.storage.stat(key))) return undefined;
  const stream = await ctx.storage.read(key);
  const hash = crypto.createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of stream) {
      if (signal.aborted) throw signal.reason;
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } finally {
    stream.destroy();
  }
  return { sha256: hash.digest('hex'), size };
}

/** Hashes every stored video that has no server digest; answers what it did. */
export async function backfillContentHashes(
  ctx: AppContext,
  signal: AbortSignal = new AbortController().signal,
): Promise<BackfillResult> {
  const log = ctx.log.child({ component: 'content-hash-backfill' });
  const result: BackfillResult = { hashed: 0, skipped: 0 };
  let after: string | undefined;
  for (;;) {
    if (signal.aborted) throw signal.reason;
    const batch = await unhashedStoredVideos(ctx.db, CONTENT_HASH_BACKFILL_BATCH, after);
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.id;
    await Promise.all(
      batch.map(async (v) => {
        try {
          const digest = await hashStored(ctx, v.source_key, signal);
          if (!digest) {
            result.skipped++;
            log.warn({ video: v.id, key: v.source_key }, 'stored file missing, not hashed');
            return;
          }
          if (await recordBackfilledHash(ctx.db, v.id, digest.sha256, digest.size)) result.hashed++;
        } catch (err) {
          if (signal.aborted) throw err;
          result.skipped++;
          log.warn({ video: v.id, err }, 'stored file not hashed');
        }
      }),
    );
  }
  if (result.hashed + result.skipped > 0) log.info(result, 'content hashes back-filled');
  return result;
}

export const backfillContentHashHandler: JobHandler = {
  name: JobName.BackfillContentHash,
  run: async (ctx, _job, signal) => {
    await backfillContentHashes(ctx, signal);
  },
};
