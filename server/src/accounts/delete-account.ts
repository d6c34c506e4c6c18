// Account deletion, from the API (oneself) and the admin command. Privacy first: the videos the
// user owns go with the account (files first, so a failure leaves rows that a retry can finish).
import type { Db } from '../db/db.ts';
import type { Storage } from '../storage/storage.ts';
import { deleteUserCascade, videoIdsOwnedBy } from '../repositories/users.ts';

export async function deleteAccount(
  deps: { db: Db; storage: Storage },
  userId: string,
): Promise<{ deletedVideos: number }> {
  const videoIds = await videoIdsOwnedBy(deps.db, userId);
  for (const id of videoIds) {
    await deps.storage.deletePrefix(`input/${id}/`);
    await deps.storage.deletePrefix(`output/${id}/`);
  }
  await deps.db.tx((q) => deleteUserCascade(q, userId));
  return { deletedVideos: videoIds.length };
}
