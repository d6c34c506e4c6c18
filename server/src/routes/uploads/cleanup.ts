// Incomplete multipart uploads expire (MULTIPART_UPLOAD_TTL_MS) and their parts are dropped by
// the hourly 'cleanup-uploads' job (server/src/jobs/schedules.ts). Local work files nobody owns
// any more (a crash mid-upload, a deleted video) go too.
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../context.ts';
import { MULTIPART_UPLOAD_TTL_MS } from '../../limits.ts';
import {
  allMultipartIds,
  closeMultipart,
  expiredMultiparts,
} from '../../repositories/multipart-uploads.ts';
import { LocalUploads } from '../../storage/uploads-local.ts';
import { uploadBackend } from '../../storage/create.ts';

async function removeStale(dir: string, keep: (name: string) => boolean, before: number) {
  const entries = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const name of entries) {
    if (keep(name)) continue;
    const full = path.join(dir, name);
    const st = await fs.promises.stat(full).catch(() => undefined);
    if (st && st.mtimeMs < before) await fs.promises.rm(full, { recursive: true, force: true });
  }
}

/** Aborts expired uploads; answers how many. */
export async function cleanupExpiredUploads(ctx: AppContext): Promise<number> {
  const backend = uploadBackend(ctx);
  let count = 0;
  for (const upload of await expiredMultiparts(ctx.db, new Date(ctx.now()))) {
    if (await closeMultipart(ctx.db, upload.id, 'aborted')) {
      await backend.abort(upload);
      count += 1;
    }
  }
  if (backend instanceof LocalUploads) {
    const open = new Set((await allMultipartIds(ctx.db)).map((r) => r.id));
    const before = ctx.now() - MULTIPART_UPLOAD_TTL_MS;
    await removeStale(path.join(backend.tmpRoot, 'multipart'), (n) => open.has(n), before);
    await removeStale(path.join(backend.tmpRoot, 'uploads'), () => false, before);
  }
  return count;
}
