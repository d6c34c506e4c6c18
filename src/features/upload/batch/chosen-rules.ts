// What becomes of each chosen file when Upload is pressed: queued, or left out and why. Pure, so
// the rules are tested without rendering.
import type { BatchEntry } from '../../../upload-queue/batch-types';
import type { BatchFileInput } from '../../../upload-queue/batch-client';
import type { LeftOutFile } from './chosen-files';
import type { ChosenItem } from './use-chosen-files';

/** Read, and not a duplicate unless the user asked to upload it anyway. */
export function isUploadable(item: ChosenItem, forced: ReadonlySet<string>): boolean {
  return item.probe === 'done' && (item.check !== 'in-archive' || forced.has(item.key));
}

export function toBatchFile(item: ChosenItem, forced: ReadonlySet<string>): BatchFileInput {
  const { chosen } = item;
  return {
    file: chosen.file,
    path: chosen.path,
    durationSeconds: item.durationSeconds ?? 0,
    videoDate: item.videoDate ?? '',
    ...(chosen.handle ? { handle: chosen.handle } : {}),
    ...(item.sha256 ? { contentSha256: item.sha256 } : {}),
    ...(forced.has(item.key) ? { allowDuplicate: true } : {}),
  };
}

/** The files not queued: left out when chosen, unreadable, or already in the archive. */
export function skippedEntries(
  items: ChosenItem[],
  leftOut: LeftOutFile[],
  forced: ReadonlySet<string>,
): BatchEntry[] {
  const entries: BatchEntry[] = leftOut.map(({ path, size, reason }) => ({
    path,
    size,
    skipped: reason,
  }));
  for (const item of items) {
    if (isUploadable(item, forced)) continue;
    const { path, file } = item.chosen;
    if (item.probe !== 'done') entries.push({ path, size: file.size, skipped: 'unreadable' });
    else if (item.inArchive)
      entries.push({ path, size: file.size, skipped: 'in-archive', inArchive: item.inArchive });
  }
  return entries;
}
