// Where the runner gets the video's bytes from, in order of durability: a Blob copied into
// IndexedDB whenever the origin's quota has room (a reload, a closed tab or a stopped worker then
// resumes on its own: docs/decisions/upload-bytes-survive-reload.md), a File System Access handle
// (survives reloads, but permission may lapse), or a File that a page handed over in this session
// (lost on reload: the job then waits for the user: needs-file).
import { STORAGE_HEADROOM_BYTES } from '../config/upload-queue.ts';
import type { FileKeep, JobBlobs } from './job-types.ts';

/**
 * Decides whether a file of this size may be copied into IndexedDB: whenever the quota leaves
 * room for it. Persistence is asked for but not required: best-effort storage is evicted only
 * under disk pressure, and an evicted copy costs what no copy would (the file is asked for again).
 */
export async function canStoreBlob(size: number): Promise<boolean> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.estimate) return false;
  const estimate = await storage.estimate();
  const free = (estimate.quota ?? 0) - (estimate.usage ?? 0);
  return free > size + STORAGE_HEADROOM_BYTES;
}

export async function chooseFileKeep(
  size: number,
  handle: FileSystemFileHandle | undefined,
  storeBlob: (size: number) => Promise<boolean> = canStoreBlob,
): Promise<FileKeep> {
  if (await storeBlob(size)) return 'blob';
  if (handle) return 'handle';
  return 'none';
}

/** Files handed over by pages in this context's lifetime (never persisted). */
const sessionFiles = new Map<string, Blob>();

export function rememberSessionFile(jobId: string, file: Blob): void {
  sessionFiles.set(jobId, file);
}

/** The file a page handed over for a job in this context's lifetime, if any. */
export function sessionFile(jobId: string): Blob | undefined {
  return sessionFiles.get(jobId);
}

export function forgetSessionFile(jobId: string): void {
  sessionFiles.delete(jobId);
}

interface PermissionAwareHandle extends FileSystemFileHandle {
  queryPermission?: (descriptor: { mode: 'read' }) => Promise<PermissionState>;
}

/** The video bytes for a job, or undefined when the user must pick the file again. */
export async function resolveFile(
  jobId: string,
  blobs: JobBlobs | undefined,
): Promise<Blob | undefined> {
  if (blobs?.file) return blobs.file;
  const inSession = sessionFiles.get(jobId);
  if (inSession) return inSession;
  const handle = blobs?.handle as PermissionAwareHandle | undefined;
  if (handle) {
    try {
      // A worker cannot show a permission prompt: only a handle still granted is usable here.
      if (handle.queryPermission && (await handle.queryPermission({ mode: 'read' })) !== 'granted')
        return undefined;
      return await handle.getFile();
    } catch {
      return undefined;
    }
  }
  return undefined;
}
