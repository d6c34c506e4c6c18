// Deleting a video and everything made from it: DELETE /api/videos/{id} and the retention job
// go through here. The work is stopped first (no job writes files or index rows afterwards),
// then the files go (input/<id>/, output/<id>/, on the local disk or in S3), then the index
// entries and the rows (scenes, people, steps and search entries cascade). Files before rows:
// a failure half-way leaves the row, so a retry (the user's, or the next retention run) finishes.
import type { AppContext } from '../context.ts';
import { deleteVideoRow } from '../repositories/videos.ts';
import { removeVideoFromIndex } from '../search/index-video.ts';
import { cancelVideoJobs } from './cancel.ts';

export async function deleteVideo(
  ctx: Pick<AppContext, 'db' | 'storage' | 'now'>,
  id: string,
): Promise<boolean> {
  await cancelVideoJobs(ctx, id);
  await ctx.storage.deletePrefix(`input/${id}/`);
  await ctx.storage.deletePrefix(`output/${id}/`);
  await removeVideoFromIndex(ctx, id);
  return deleteVideoRow(ctx.db, id);
}
