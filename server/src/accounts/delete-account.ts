// Account deletion, from the API (oneself) and the admin command. Privacy first: the videos the
// user owns go with the account. Their analysis is cancelled first (so no job writes files or
// index rows afterwards), then the files (so a failure leaves rows that a retry can finish), then
// the rows; search entries, scenes and sessions follow by cascade.
import type { AppContext } from '../context.ts';
import { cancelVideoJobs } from '../pipeline/cancel.ts';
import { deleteUserCascade, videoIdsOwnedBy } from '../repositories/users.ts';

export async function deleteAccount(
  deps: Pick<AppContext, 'db' | 'storage' | 'now'>,
  userId: string,
): Promise<{ deletedVideos: number }> {
  const videoIds = await videoIdsOwnedBy(deps.db, userId);
  for (const id of videoIds) {
    await cancelVideoJobs(deps, id);
    await deps.storage.deletePrefix(`input/${id}/`);
    await deps.storage.deletePrefix(`output/${id}/`);
  }
  await deps.db.tx((q) => deleteUserCascade(q, userId));
  return { deletedVideos: videoIds.length };
}
