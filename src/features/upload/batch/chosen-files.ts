// Many files or whole folders, as the browser gives them: a multiple file picker, a directory
// picker (File System Access), a folder input (webkitdirectory) or a drop of files and folders.
// Everything ends as ChosenFile: the File, its path inside the chosen folder and, where the
// browser has one, a handle the queue can read again after a reload without a copy.
import { BATCH_MAX_FILES, VIDEO_MAX_BYTES } from '../../../config/limits';
import type { BatchSkipReason } from '../../../upload-queue/batch-types';
import { isVideoFile } from '../upload-rules';

export interface ChosenFile {
  file: File;
  /** The path inside the chosen folder ("trip/day 1/harbour.mp4"), or the name. */
  path: string;
  handle?: FileSystemFileHandle;
}

export interface LeftOutFile {
  path: string;
  size: number;
  reason: BatchSkipReason;
  /** The file itself, when one was read (a single too-large choice names it). */
  file?: File;
}

export interface SortedChoice {
  accepted: ChosenFile[];
  leftOut: LeftOutFile[];
  /** More than BATCH_MAX_FILES were found: the walk stopped and the batch is refused. */
  tooMany: boolean;
}

/** Splits a choice into the videos taken and the files left out, with the reason. */
export function sortChoice(files: ChosenFile[], unreadable: string[] = []): SortedChoice {
  const accepted: ChosenFile[] = [];
  const leftOut: LeftOutFile[] = unreadable.map((path) => ({
    path,
    size: 0,
    reason: 'unreadable',
  }));
  for (const chosen of files) {
    const { file, path } = chosen;
    if (!isVideoFile(file)) leftOut.push({ path, size: file.size, reason: 'not-a-video', file });
    else if (file.size > VIDEO_MAX_BYTES)
      leftOut.push({ path, size: file.size, reason: 'too-large', file });
    else accepted.push(chosen);
  }
  return { accepted, leftOut, tooMany: files.length + unreadable.length > BATCH_MAX_FILES };
}

/** Collects files, stopping one past the batch limit (a 100,000-file folder is not read to the end). */
class Collector {
  readonly files: ChosenFile[] = [];
  readonly unreadable: string[] = [];
  get full(): boolean {
    return this.files.length + this.unreadable.length > BATCH_MAX_FILES;
  }
}

type DirectoryHandle = FileSystemDirectoryHandle & {
  values(): AsyncIterable<FileSystemHandle>;
};

async function walkHandle(dir: FileSystemDirectoryHandle, prefix: string, out: Collector) {
  for await (const handle of (dir as DirectoryHandle).values()) {
    if (out.full) return;
    const path = `${prefix}${handle.name}`;
    if (handle.kind === 'directory') {
      await walkHandle(handle as FileSystemDirectoryHandle, `${path}/`, out);
      continue;
    }
    const fileHandle = handle as FileSystemFileHandle;
    try {
      out.files.push({ file: await fileHandle.getFile(), path, handle: fileHandle });
    } catch {
      out.unreadable.push(path);
    }
  }
}

/** Every file under a directory handle (showDirectoryPicker, or a dropped folder in Chromium). */
export async function filesOfDirectory(dir: FileSystemDirectoryHandle): Promise<SortedChoice> {
  const out = new Collector();
  await walkHandle(dir, `${dir.name}/`, out);
  return sortChoice(out.files, out.unreadable);
}

function readBatch(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function entryFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walkEntry(entry: FileSystemEntry, out: Collector): Promise<void> {
  if (out.full) return;
  const path = entry.fullPath.replace(/^\//, '');
  if (entry.isFile) {
    try {
      out.files.push({ file: await entryFile(entry as FileSystemFileEntry), path });
    } catch {
      out.unreadable.push(path);
    }
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers at most 100 entries a call: read until it answers none.
  for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) {
    for (const child of batch) await walkEntry(child, out);
  }
}

type HandleItem = DataTransferItem & {
  getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
};

/**
 * What was dropped: files and folders. Handles and entries must be asked for during the drop
 * event (the items die with it), so this starts both at once and awaits them after.
 */
export function filesOfDrop(data: DataTransfer): Promise<SortedChoice> {
  const items = Array.from(data.items).filter((item) => item.kind === 'file');
  const files = Array.from(data.files);
  const pending = items.map((item, i) => ({
    handle: (item as HandleItem).getAsFileSystemHandle?.().catch(() => null),
    entry: item.webkitGetAsEntry?.() ?? null,
    file: item.getAsFile?.() ?? files[i] ?? null,
  }));
  return (async () => {
    const out = new Collector();
    for (const { handle: handlePromise, entry, file } of pending) {
      if (out.full) break;
      const handle = await handlePromise;
      if (handle?.kind === 'directory') {
        await walkHandle(handle as FileSystemDirectoryHandle, `${handle.name}/`, out);
      } else if (entry?.isDirectory) {
        await walkEntry(entry, out);
      } else if (file) {
        const fileHandle = handle?.kind === 'file' ? (handle as FileSystemFileHandle) : undefined;
        out.files.push({ file, path: file.name, ...(fileHandle ? { handle: fileHandle } : {}) });
      }
    }
    return sortChoice(out.files, out.unreadable);
  })();
}

/** Files from an <input type=file multiple> or its webkitdirectory twin. */
export function filesOfInput(list: FileList | null): SortedChoice {
  const files = Array.from(list ?? [], (file) => ({
    file,
    path: file.webkitRelativePath || file.name,
  }));
  return sortChoice(files);
}
