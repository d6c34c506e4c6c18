// Account deletion, from the API (oneself) and the admin command. Privacy first: the videos the
// user owns go with the account. Their analysis is cancelled first (so no job writes files or
// index rows afterwards), then the files (so a failure leaves rows that a retry can finish), then
// the rows; search entries, scenes and sessions follow by cascade.
import type { AppContext } from '../context.ts';
import { HttpError } from '../lib/http-error.ts';
import { cancelVideoJobs } from '../pipeline/cancel.ts';
import { deleteUserCascade, lockUserVideoIds, videoIdsOwnedBy } from '../repositories/users.ts';

type Deps = Pick<AppContext, 'db' | 'storage' | 'now'>;

/** A user who keeps adding videos while their account is deleted is told to try again. */
const MAX_PASSES = 5;

export async function deleteAccount(
  deps: Deps,
  userId: string,
): Promise<{ deletedVideos: number }> {
  const cleared = new Set<string>();
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    for (const id of await videoIdsOwnedBy(deps.db, userId)) {
      if (cleared.has(id)) continue;
      await clearVideo(deps, id);
      cleared.add(id);
    }
    // The rows go only if every video is one whose files were removed above: a video created
    // since the listing (an upload finishing) would otherwise lose its row and keep its files.
    const deleted = await deps.db.tx(async (q) => {
      const owned = await lockUserVideoIds(q, userId);
      if (owned === undefined) return 0;
      if (owned.some((id) => !cleared.has(id))) return null;
      await deleteUserCascade(q, userId);
      return owned.length;
    });
    if (deleted !== null) return { deletedVideos: deleted };
  }
  throw new HttpError(
    409,
    'New videos kept arriving while deleting the account. Please try again.',
  );
}

async function clearVideo(deps: Deps, id: string): Promise<void> {
  await cancelVideoJobs(deps, id);
  await deps.storage.deletePrefix(`input/${id}/`);
  await deps.storage.deletePrefix(`output/${id}/`);
}
